# `cpack -G DEB` in a build tree makes a .deb of what is installed.
set(CPACK_PACKAGE_NAME "stampede")
set(CPACK_PACKAGE_VENDOR "Stampede")
set(CPACK_PACKAGE_CONTACT "Stampede developers <dev@stampede.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
include(CPack)
