# The GUI soak (scripts/soak gui): a program that runs for minutes, not a CTest test. Built only
# when asked (-DEPSILON_BUILD_SOAK=ON, as scripts/soak does), so a change of the widgets'
# headers never breaks the normal build through it.
option(EPSILON_BUILD_SOAK "Build the GUI soak program (bench/gui_soak.cpp)" OFF)
if(EPSILON_BUILD_SOAK AND EPSILON_BUILD_GUI)
  add_executable(epsilon_gui_soak ${CMAKE_CURRENT_SOURCE_DIR}/gui_soak.cpp)
  target_link_libraries(epsilon_gui_soak PRIVATE epsilon::ui Qt6::Widgets epsilon::warnings
                                                 epsilon::options)
  target_compile_definitions(epsilon_gui_soak PRIVATE QT_NO_KEYWORDS)
endif()
