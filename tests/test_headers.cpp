// The one file of bn_test_headers, the target that compiles the tests' precompiled header
// (tests/CMakeLists.txt); CMake needs a source to build it with. Nothing of its own.
