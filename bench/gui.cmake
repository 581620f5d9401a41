# GUI responsiveness while runs train (a plain Qt program: it reports, it never fails on time).
if(EPSILON_BUILD_GUI)
  add_executable(bench_gui_responsiveness ${CMAKE_CURRENT_SOURCE_DIR}/gui_responsiveness.cpp)
  target_link_libraries(bench_gui_responsiveness PRIVATE epsilon::ui epsilon::warnings epsilon::options)
endif()
# One chart update with 20 runs × 2,000 points (new points are appended, not redrawn).
if(EPSILON_BUILD_GUI)
  add_executable(bench_chart_update ${CMAKE_CURRENT_SOURCE_DIR}/chart_update.cpp)
  target_link_libraries(bench_chart_update PRIVATE epsilon::charts epsilon::warnings epsilon::options)
endif()
