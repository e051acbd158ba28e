# CPack: `cpack --config build/release/CPackConfig.cmake` builds a .deb and a .tar.gz.
install(FILES ${PROJECT_SOURCE_DIR}/installer/topodeck.desktop DESTINATION share/applications OPTIONAL)
install(FILES ${PROJECT_SOURCE_DIR}/installer/io.topodeck.Topodeck.metainfo.xml DESTINATION share/metainfo OPTIONAL)
install(FILES ${PROJECT_SOURCE_DIR}/resources/icons/topodeck.svg
        DESTINATION share/icons/hicolor/scalable/apps RENAME io.topodeck.Topodeck.svg)

set(CPACK_PACKAGE_NAME topodeck)
set(CPACK_PACKAGE_VENDOR "topodeck")
set(CPACK_PACKAGE_CONTACT "topodeck maintainers")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_GENERATOR "DEB;TGZ")
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SECTION utils)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "fonts-noto-cjk, qt6-qpa-plugins")
include(CPack)
