# The `bottlenecks` executable links the static archives of its libraries (zstd, zlib,
# protobuf-lite, libedit and what libedit needs), and libstdc++ and libgcc statically unless
# sanitized, so that it needs nothing on a machine but glibc: a performance engineer copies one
# file to the slow server. It also starts in about half the time (2.2 -> 1.3 ms for `--version`:
# dynamic loading of ten libraries was most of the start; the millisecond saved is a thirtieth of
# opening a 1.1M-node profile; bench/LOG.md "Start-up"). The JVMTI agent and the tests keep the shared
# libraries: the agent lives in a JVM where a static zstd would export its symbols next to
# whatever else the program loads.
#
# Each bn_dep_* target below chooses per linking target: a target whose BN_STATIC_DEPS property
# is on gets the archive, any other the shared library, even through static libraries of ours
# that both kinds of target link (the generator expression is evaluated for the target linked).
option(BN_STATIC_DEPS "Link the bottlenecks executable with static archives (only glibc shared)" ON)

set(bn_static_wanted "$<BOOL:$<TARGET_PROPERTY:BN_STATIC_DEPS>>")

# bn_find_archive(VAR NAME): the path of libNAME.a, or a configure error naming the package.
function(bn_find_archive var name)
  find_library(${var} NAMES lib${name}.a NO_CACHE)
  if(NOT ${var})
    message(FATAL_ERROR "BN_STATIC_DEPS: lib${name}.a not found (Debian ships it in the library's "
                        "-dev package); install it or configure with -DBN_STATIC_DEPS=OFF")
  endif()
  set(${var} ${${var}} PARENT_SCOPE)
endfunction()

# bn_add_dep(NAME SHARED_TARGET STATIC_ITEMS...): bn_dep_NAME, linked in place of the library.
function(bn_add_dep name shared)
  add_library(bn_dep_${name} INTERFACE)
  if(BN_STATIC_DEPS)
    target_link_libraries(bn_dep_${name} INTERFACE "$<IF:${bn_static_wanted},${ARGN},${shared}>")
  else()
    target_link_libraries(bn_dep_${name} INTERFACE ${shared})
  endif()
endfunction()

if(BN_STATIC_DEPS)
  bn_find_archive(bn_zlib_a z)
  bn_find_archive(bn_protobuf_lite_a protobuf-lite)
  # libedit's own pkg-config file names what its archive needs (-ltermcap -lbsd); libbsd's archive
  # in turn needs libmd's message digests.
  set(bn_edit_archives "")
  foreach(lib IN LISTS LIBEDIT_STATIC_LIBRARIES ITEMS md)
    bn_find_archive(bn_archive_${lib} ${lib})
    list(APPEND bn_edit_archives ${bn_archive_${lib}})
  endforeach()
  list(REMOVE_DUPLICATES bn_edit_archives)
  string(REPLACE ";" "$<SEMICOLON>" bn_edit_archives "${bn_edit_archives}")
endif()

bn_add_dep(zstd zstd::libzstd_shared zstd::libzstd_static)
bn_add_dep(zlib ZLIB::ZLIB "${bn_zlib_a}")
bn_add_dep(protobuf_lite protobuf::libprotobuf-lite "${bn_protobuf_lite_a}$<SEMICOLON>Threads::Threads")
bn_add_dep(libedit PkgConfig::LIBEDIT "${bn_edit_archives}")

# bn_link_static_deps(TARGET): TARGET gets the archives above, and libstdc++ and libgcc statically
# unless sanitized (the sanitizers' runtimes replace operator new and must see the shared ones).
function(bn_link_static_deps target)
  if(NOT BN_STATIC_DEPS)
    return()
  endif()
  set_target_properties(${target} PROPERTIES BN_STATIC_DEPS ON)
  if(NOT BN_SANITIZE)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
