# What the .deb installs besides the two programs: the desktop entry, the
# icon (SVG, and PNGs of the hicolor sizes drawn by makeicons), the MIME types
# of .stampede, .stbundle and .streport, man pages made from --help by
# help2man, and the copyright and changelog Debian asks for.
set(STAMPEDE_DESKTOP ${CMAKE_CURRENT_LIST_DIR}/desktop)
set(STAMPEDE_ICONS ${CMAKE_BINARY_DIR}/icons)
set(STAMPEDE_MAN ${CMAKE_BINARY_DIR}/man)

add_executable(stampede-makeicons ${STAMPEDE_DESKTOP}/makeicons.cpp)
target_link_libraries(stampede-makeicons PRIVATE Qt6::Gui)
add_custom_command(OUTPUT ${STAMPEDE_ICONS}/256x256/apps/stampede.png
    COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen $<TARGET_FILE:stampede-makeicons> ${STAMPEDE_ICONS}
    DEPENDS stampede-makeicons COMMENT "Drawing the icons")
set(outputs ${STAMPEDE_ICONS}/256x256/apps/stampede.png)

configure_file(${STAMPEDE_DESKTOP}/changelog ${CMAKE_BINARY_DIR}/doc/changelog @ONLY)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/doc/changelog.gz
    COMMAND gzip -9nkf ${CMAKE_BINARY_DIR}/doc/changelog DEPENDS ${CMAKE_BINARY_DIR}/doc/changelog)
list(APPEND outputs ${CMAKE_BINARY_DIR}/doc/changelog.gz)

find_program(HELP2MAN help2man)
if(HELP2MAN)
    foreach(program stampede-cli stampede)
        if(program STREQUAL "stampede")
            set(name "the load-testing workbench")
        else()
            set(name "load and full-link stress testing from the command line")
        endif()
        add_custom_command(OUTPUT ${STAMPEDE_MAN}/${program}.1.gz
            COMMAND ${CMAKE_COMMAND} -E make_directory ${STAMPEDE_MAN}
            COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen ${HELP2MAN} --no-info
                    --section 1 --name ${name} --output ${STAMPEDE_MAN}/${program}.1 $<TARGET_FILE:${program}>
            COMMAND gzip -9nf ${STAMPEDE_MAN}/${program}.1
            DEPENDS ${program} COMMENT "Writing the man page of ${program} from its --help" VERBATIM)
        list(APPEND outputs ${STAMPEDE_MAN}/${program}.1.gz)
        install(FILES ${STAMPEDE_MAN}/${program}.1.gz DESTINATION share/man/man1)
    endforeach()
else()
    message(WARNING "help2man is missing (scripts/install-deps.sh installs it): no man pages")
endif()
add_custom_target(stampede-desktop ALL DEPENDS ${outputs})

install(FILES ${STAMPEDE_DESKTOP}/stampede.desktop DESTINATION share/applications)
install(FILES ${STAMPEDE_DESKTOP}/stampede-mime.xml DESTINATION share/mime/packages RENAME stampede.xml)
install(FILES ${STAMPEDE_DESKTOP}/stampede.svg DESTINATION share/icons/hicolor/scalable/apps)
install(DIRECTORY ${STAMPEDE_ICONS}/ DESTINATION share/icons/hicolor)
install(FILES ${STAMPEDE_DESKTOP}/copyright ${CMAKE_BINARY_DIR}/doc/changelog.gz DESTINATION share/doc/stampede)
# The agent as a systemd service (the maintainer scripts in packaging/debian make its user). Debian 12 keeps
# units under /lib (usrmerge links it to /usr/lib): an absolute destination, outside the package's /usr prefix.
install(FILES ${PROJECT_SOURCE_DIR}/packaging/systemd/stampede-agent.service DESTINATION /lib/systemd/system)
