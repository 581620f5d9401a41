# GUI responsiveness while runs train (a plain Qt program: it reports, it never fails on time).
if(EPSILON_BUILD_GUI)
  add_executable(bench_gui_responsiveness ${CMAKE_CURRENT_SOURCE_DIR}/gui_responsiveness.cpp)
  target_link_libraries(bench_gui_responsiveness PRIVATE epsilon::ui epsilon::warnings epsilon::options)
endif()
