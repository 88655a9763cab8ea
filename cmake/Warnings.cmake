# bn_warnings: the project's warning set, linked PRIVATE by every target we own.
add_library(bn_warnings INTERFACE)
target_compile_options(bn_warnings INTERFACE -Wall -Wextra -Wshadow -Wnon-virtual-dtor
                                             -Wold-style-cast)
if(BN_WERROR)
  target_compile_options(bn_warnings INTERFACE -Werror)
endif()
