# Interface targets that every EpsilonLab target links PRIVATE:
#   epsilon::warnings  - the warning set (-Wall -Wextra -Wpedantic and friends)
#   epsilon::options   - optimisation, sanitizers, CPU tuning
add_library(epsilon_warnings INTERFACE)
add_library(epsilon::warnings ALIAS epsilon_warnings)
target_compile_options(epsilon_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wcast-align
  -Woverloaded-virtual -Wimplicit-fallthrough)
# GCC 12 reports a false positive inside its own AVX-512 intrinsics (_mm512_undefined_*)
# whenever Eigen's matrix-product kernels are inlined with -march=native (fixed in GCC 13);
# with the sanitizers it becomes -Wuninitialized.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
  target_compile_options(epsilon_warnings INTERFACE -Wno-maybe-uninitialized)
  if(EPSILON_SANITIZERS)
    target_compile_options(epsilon_warnings INTERFACE -Wno-uninitialized)
  endif()
endif()

# g++ links through gold (part of binutils, installed with g++): a test suite links in 0.37 s
# instead of ld.bfd's 1.3 s, and a tree has some 150 programs to link. Clang trees name their
# own linker (the asan preset: lld).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND NOT CMAKE_EXE_LINKER_FLAGS MATCHES "-fuse-ld=")
  include(CheckLinkerFlag)
  check_linker_flag(CXX -fuse-ld=gold EPSILON_LINKER_GOLD)
  if(EPSILON_LINKER_GOLD)
    add_link_options(-fuse-ld=gold)
  endif()
endif()

add_library(epsilon_options INTERFACE)
add_library(epsilon::options ALIAS epsilon_options)
if(EPSILON_NATIVE)
  target_compile_options(epsilon_options INTERFACE -march=native)
endif()
if(EPSILON_SANITIZERS)
  target_compile_options(epsilon_options INTERFACE -fsanitize=${EPSILON_SANITIZERS} -fno-omit-frame-pointer)
  target_link_options(epsilon_options INTERFACE -fsanitize=${EPSILON_SANITIZERS})
endif()

# epsilon_add_area(NAME DEPENDS ...): one static library per core/ folder, from the
# folder's .cpp files, public include root at core/.. so headers read "core/nn/model.h".
# With EPSILON_ENGINE_HWCAPS (packaged builds), the folder is compiled twice instead, as
# object libraries for the baseline CPU and for x86-64-v3, which core/CMakeLists.txt gathers
# into the two copies of the shared engine; epsilon::NAME then stands for the engine.
function(epsilon_add_area name)
  cmake_parse_arguments(ARG "" "" "DEPENDS" ${ARGN})
  file(GLOB sources CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cpp)
  if(EPSILON_ENGINE_HWCAPS)
    # Other areas are reached through the include root; linking them here would make each
    # object library depend on the engine that contains it.
    list(FILTER ARG_DEPENDS EXCLUDE REGEX "^epsilon::")
    foreach(variant baseline v3)
      add_library(epsilon_${name}_${variant} OBJECT ${sources})
      target_include_directories(epsilon_${name}_${variant} PUBLIC ${PROJECT_SOURCE_DIR})
      target_link_libraries(epsilon_${name}_${variant} PUBLIC epsilon::common ${ARG_DEPENDS}
                            PRIVATE epsilon::warnings epsilon::options)
      set_target_properties(epsilon_${name}_${variant} PROPERTIES POSITION_INDEPENDENT_CODE ON)
    endforeach()
    target_compile_options(epsilon_${name}_v3 PRIVATE -march=x86-64-v3)
    set_property(GLOBAL APPEND PROPERTY EPSILON_ENGINE_AREAS ${name})
    add_library(epsilon_${name} INTERFACE)
    add_library(epsilon::${name} ALIAS epsilon_${name})
    target_link_libraries(epsilon_${name} INTERFACE epsilon_engine)
    return()
  endif()
  add_library(epsilon_${name} STATIC ${sources})
  add_library(epsilon::${name} ALIAS epsilon_${name})
  target_include_directories(epsilon_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(epsilon_${name} PUBLIC ${ARG_DEPENDS} PRIVATE epsilon::warnings epsilon::options)
  set_target_properties(epsilon_${name} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

# epsilon_unity_build(TARGET): compile the target's sources in batches of eight per translation
# unit. The Qt-heavy targets (widgets, charts, io, CLI) spend most of their compile time parsing
# the same Qt headers in every file; batching cuts a cold build by minutes on two cores.
# Files in one batch share a translation unit, so file-local names must not collide.
function(epsilon_unity_build target)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
endfunction()
