# `cpack -G DEB` in a build tree makes a .deb of what is installed: both
# programs (stripped), the desktop entry, icons, MIME types, man pages
# (packaging/Desktop.cmake). tests/packaging checks it with dpkg-deb and lintian.
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME "stampede")
set(CPACK_PACKAGE_VENDOR "Stampede")
set(CPACK_PACKAGE_CONTACT "Stampede developers <dev@stampede.invalid>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "workbench for load and full-link stress testing")
set(CPACK_PACKAGE_DESCRIPTION "Stampede builds HTTP and gRPC requests as a QA engineer would in
Postman, binds them to parameter sources, shapes the load, runs it on local
engines or remote agents, charts live throughput and latency percentiles,
and keeps projects and reports in SQLite. stampede is the workbench;
stampede-cli runs scenarios, agents, the mock server and reports from the
command line.")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_PACKAGE_SECTION net)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# the modules a Postman script may require (engine/script/nodemodules.h)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "node-lodash, node-moment, node-uuid, node-ajv, node-xml2js, node-events, node-cheerio, node-buffer")
# the agent as a systemd service: its unit, and the user and folder its maintainer scripts make
set(CPACK_DEBIAN_PACKAGE_DEPENDS "adduser, init-system-helpers (>= 1.54)")
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${PROJECT_SOURCE_DIR}/packaging/debian/postinst;${PROJECT_SOURCE_DIR}/packaging/debian/prerm;${PROJECT_SOURCE_DIR}/packaging/debian/postrm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION TRUE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)
include(CPack)
