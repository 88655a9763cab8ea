# bn_sanitizers: ASan + UBSan when BN_SANITIZE is on; linked PRIVATE by every target we own.
# Sanitized code is compiled at -O1 (after the build type's -O2, so it wins), the level ASan's
# documentation recommends: reports keep their exact frames and the suite stays fast, and it
# compiles about a fifth faster than at -O2 (docs/performance.md "CI"). Targets that do not link this
# one (the JVMTI agent) keep the build type's flags.
add_library(bn_sanitizers INTERFACE)
if(BN_SANITIZE)
  target_compile_options(bn_sanitizers INTERFACE -O1 -fsanitize=address,undefined
                                                 -fno-sanitize-recover=undefined
                                                 -fno-omit-frame-pointer)
  target_link_options(bn_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
