# AUTOMOC hands moc the compiler's implicit include folders, and moc parses every header it
# can reach from a file with Q_OBJECT: for a test suite including Eigen and the standard
# library that was most of its time (the sum over a build: about a tenth of the build's CPU).
# epsilon_quick_moc() points every target's AUTOMOC at a wrapper that drops those folders
# and Eigen's; moc still sees the project's and Qt's headers, which are all a Q_OBJECT class
# can need, and writes the same files (docs/ARCHITECTURE.md, "Tests", the CI paragraphs).

function(epsilon_targets_in dir out)
  get_property(targets DIRECTORY ${dir} PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY ${dir} PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    epsilon_targets_in(${sub} more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} ${targets} PARENT_SCOPE)
endfunction()

function(epsilon_quick_moc)
  get_target_property(EPSILON_MOC Qt6::moc IMPORTED_LOCATION)
  if(NOT EPSILON_MOC)
    message(STATUS "epsilon_quick_moc: Qt6::moc names no file; AUTOMOC runs moc as CMake finds it")
    return()
  endif()
  get_target_property(eigen Eigen3::Eigen INTERFACE_INCLUDE_DIRECTORIES)
  set(dropped)
  foreach(dir IN LISTS CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES eigen)
    if(dir MATCHES "[*?\\[\\]|\"'$` ]")
      message(STATUS "epsilon_quick_moc: '${dir}' cannot be matched by the wrapper; moc keeps it")
    else()
      list(APPEND dropped "-I${dir}")
    endif()
  endforeach()
  list(JOIN dropped "|" EPSILON_MOC_DROPPED)
  set(wrapper ${CMAKE_BINARY_DIR}/moc-quick)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/moc-quick.sh.in ${wrapper} @ONLY
                 FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ
                                  GROUP_EXECUTE WORLD_READ WORLD_EXECUTE)
  epsilon_targets_in(${PROJECT_SOURCE_DIR} targets)
  foreach(target IN LISTS targets)
    get_target_property(automoc ${target} AUTOMOC)
    if(automoc)
      set_target_properties(${target} PROPERTIES AUTOMOC_EXECUTABLE ${wrapper})
    endif()
  endforeach()
endfunction()
