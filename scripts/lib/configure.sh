# Sourced by the scripts that configure a build folder (build, package, fuzz, ci-sanitizers,
# soak, check-slurm); not run on its own.
#
# configure_tree DIR CMAKE_ARGS...: runs `cmake CMAKE_ARGS...` (quietly) for the build folder
# DIR. A folder that another generator configured (make, before the presets named Ninja) is
# configured afresh with --fresh: CMake refuses to switch a folder's generator, and stops with
# "generator does not match" instead.
configure_tree() {
  local dir=$1
  shift
  local fresh=()
  if [ -f "$dir/CMakeCache.txt" ] && ! grep -qx 'CMAKE_GENERATOR:INTERNAL=Ninja' "$dir/CMakeCache.txt"; then
    fresh=(--fresh)
  fi
  cmake "$@" "${fresh[@]}" >/dev/null
}
