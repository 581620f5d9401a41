# Accounting speed (core/privacy): RDP and PLD ε, calibration. Targets from issue 3:
# RDP ε for 1e5 steps < 1 ms, tight ε for the TF Privacy tutorial < 100 ms, RDP calibration < 50 ms.
epsilon_add_bench(bench_accounting ${CMAKE_CURRENT_SOURCE_DIR}/bench_accounting.cpp epsilon::privacy)
# PLD accounting of noise schedules as the trainer evaluates them (issue 29); a plain program
# printing medians: bench_pld_schedule [repetitions] [case ...].
epsilon_add_bench(bench_pld_schedule ${CMAKE_CURRENT_SOURCE_DIR}/bench_pld_schedule.cpp epsilon::privacy)
