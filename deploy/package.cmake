# The Debian packages (`make package`, CPack's DEB generator, one package a
# component):
#   g16      (component runtime): the programs, libg16.so.N,
#            libg16_memwatch.so.N and libg16_client.so.N, their man pages
#            (deploy/manpages.sh: help2man on the real --help texts), the
#            systemd units and /etc/g16d.conf, a conffile (dpkg -r keeps it,
#            dpkg -P removes it);
#   g16-dev  (component dev): the headers, the three libraries' .so links and
#            .a archives, and their .pc files.
# The units and the config are the package's alone (EXCLUDE_FROM_ALL): the
# unit names /usr/bin/g16d, and `make install` under /usr/local writes
# nothing in /etc.  The service runs as a dynamic user (no account to
# make), and `systemctl enable --now g16d` is the operator's step.
find_program(G16_HELP2MAN help2man)
if(NOT G16_HELP2MAN)
  g16_missing_dependency("help2man" "the man pages of the Debian package")
  return()
endif()
if(NOT TARGET g16 OR NOT TARGET g16d OR NOT TARGET memwatch)
  # their CMakeLists.txt said why; a package without a program is no use
  message(STATUS "no Debian package (make package): a program is not built")
  return()
endif()

set(g16_man_dir ${CMAKE_BINARY_DIR}/man)
set(g16_man_pages ${g16_man_dir}/g16.1.gz ${g16_man_dir}/g16d.8.gz ${g16_man_dir}/memwatch.1.gz)
add_custom_command(
  OUTPUT ${g16_man_pages}
  COMMAND bash ${CMAKE_SOURCE_DIR}/deploy/manpages.sh ${CMAKE_BINARY_DIR}/bin ${g16_man_dir}
          ${PROJECT_VERSION}
  DEPENDS g16 g16d memwatch ${CMAKE_SOURCE_DIR}/deploy/manpages.sh
  COMMENT "Man pages from the programs' --help (help2man)")
add_custom_target(g16_man_pages ALL DEPENDS ${g16_man_pages})
install(FILES ${g16_man_dir}/g16.1.gz ${g16_man_dir}/memwatch.1.gz
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1 COMPONENT runtime)
install(FILES ${g16_man_dir}/g16d.8.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man8 COMPONENT runtime)

# The service unit: the GPU's device nodes when the CUDA backend is in
# (NVIDIA's character devices, matched by name in /proc/devices), else no
# devices beyond /dev/null and its kind.
set(G16D_INSTALLED /usr/bin/g16d)
if(G16_HAVE_CUDA)
  set(G16D_UNIT_DEVICES "# The GPU: NVIDIA's devices (/dev/nvidia*, nvidia-uvm, nvidia-caps) only.\nDevicePolicy=closed\nDeviceAllow=char-nvidia* rw")
else()
  set(G16D_UNIT_DEVICES "# A build without the CUDA backend needs no device.\nPrivateDevices=yes")
endif()
configure_file(${CMAKE_SOURCE_DIR}/deploy/systemd/g16d.service.in
               ${CMAKE_BINARY_DIR}/deploy/g16d.service @ONLY)
install(FILES ${CMAKE_BINARY_DIR}/deploy/g16d.service ${CMAKE_SOURCE_DIR}/deploy/systemd/g16d.socket
        DESTINATION lib/systemd/system COMPONENT runtime EXCLUDE_FROM_ALL)
install(FILES ${CMAKE_SOURCE_DIR}/deploy/g16d.conf DESTINATION /etc COMPONENT runtime
        EXCLUDE_FROM_ALL)
file(WRITE ${CMAKE_BINARY_DIR}/deploy/conffiles "/etc/g16d.conf\n")

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME g16)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_CONTACT "g16 maintainers <g16@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "Groth16 prover for circom circuits and snarkjs keys")
# /etc/g16d.conf is an absolute destination: staged under DESTDIR too,
# where the prefix is CPACK_INSTALL_PREFIX's (not the build's /usr/local).
set(CPACK_SET_DESTDIR ON)
set(CPACK_INSTALL_PREFIX /usr)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_ALL runtime dev)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_NAME g16)
set(CPACK_DEBIAN_RUNTIME_DESCRIPTION "Groth16 prover for circom circuits and snarkjs keys
g16 proves on BN254 and BLS12-381 from a snarkjs .zkey and a circom witness,
writing proofs snarkjs and Solidity verifiers accept.  This package has the
g16 command, the g16d proving daemon with its systemd service, memwatch and
the shared libraries libg16, libg16_memwatch and libg16_client.")
# The libraries it links come from dpkg-shlibdeps; a witness from circuit
# inputs compiles the circuit's wasm with wasm2c (wabt) and cc at run time.
set(CPACK_DEBIAN_RUNTIME_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_BINARY_DIR}/src/lib)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_DEPENDS "wabt, gcc | c-compiler")
# The control files beside the conffile: shlibs (what a package linking
# libg16.so.N depends on), the ldconfig trigger, and the maintainer scripts
# (deploy/debian: systemd told of the units, the daemon stopped before a
# remove, its state gone at a purge; given here, CPack writes none of its
# own, which would run ldconfig even in a dpkg --root).
file(WRITE ${CMAKE_BINARY_DIR}/deploy/shlibs
     "libg16 ${PROJECT_VERSION_MAJOR} g16 (>= ${PROJECT_VERSION})\n"
     "libg16_memwatch ${PROJECT_VERSION_MAJOR} g16 (>= ${PROJECT_VERSION})\n"
     "libg16_client ${PROJECT_VERSION_MAJOR} g16 (>= ${PROJECT_VERSION})\n")
file(WRITE ${CMAKE_BINARY_DIR}/deploy/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_EXTRA
    ${CMAKE_BINARY_DIR}/deploy/conffiles ${CMAKE_BINARY_DIR}/deploy/shlibs
    ${CMAKE_BINARY_DIR}/deploy/triggers ${CMAKE_SOURCE_DIR}/deploy/debian/postinst
    ${CMAKE_SOURCE_DIR}/deploy/debian/prerm ${CMAKE_SOURCE_DIR}/deploy/debian/postrm)
set(CPACK_DEBIAN_RUNTIME_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_DEV_PACKAGE_NAME g16-dev)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "g16 (= ${PROJECT_VERSION})")
set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_DESCRIPTION "Groth16 prover library g16: development files
The headers of libg16, libg16_memwatch and libg16_client, their .so links,
static archives and .pc files for pkg-config.")
include(CPack)
