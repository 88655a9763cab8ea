# bn_sanitizers: ASan + UBSan when BN_SANITIZE is on; linked PRIVATE by every target we own.
add_library(bn_sanitizers INTERFACE)
if(BN_SANITIZE)
  target_compile_options(bn_sanitizers INTERFACE -fsanitize=address,undefined
                                                 -fno-sanitize-recover=undefined
                                                 -fno-omit-frame-pointer)
  target_link_options(bn_sanitizers INTERFACE -fsanitize=address,undefined)
endif()
