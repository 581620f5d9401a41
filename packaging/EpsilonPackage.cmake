# The Debian package epsilonlab_<version>_amd64.deb (scripts/package builds it): Depends from
# dpkg-shlibdeps, the Fashion-MNIST data set recommended, man pages and changelog compressed.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME epsilonlab)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_PACKAGE_CONTACT "${EPSILON_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "privacy-utility trade-off of differentially private deep learning")
# The extended description only: CPack puts the summary above it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "EpsilonLab trains neural networks with DP-SGD in background jobs and
draws, live, test accuracy against epochs and against the privacy budget
epsilon, with its delta, accountant (RDP or PLD) and sampling assumption.
Presets reproduce published figures; lessons and a presentation mode serve
the classroom; membership-inference audits show what epsilon means for an
attacker.
.
epsilonlab-cli trains, sweeps, audits and accounts without a display;
epsilonlab-plot draws session files as charts.")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS dataset-fashion-mnist)
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_STRIP_FILES ON)
include(CPack)
