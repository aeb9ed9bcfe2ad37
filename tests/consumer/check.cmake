# ctest driver for the package test: install onepass into a staging prefix, configure and
# build tests/consumer against it with find_package(onepass), run it.
# Invoked as: cmake -DONEPASS_BINARY_DIR=... -DONEPASS_SOURCE_DIR=... -DARCH=... -P check.cmake
set(stage "${ONEPASS_BINARY_DIR}/consumer-stage")
set(build "${ONEPASS_BINARY_DIR}/consumer-build")
file(REMOVE_RECURSE "${stage}" "${build}")
foreach(step
    "${CMAKE_COMMAND};--install;${ONEPASS_BINARY_DIR};--prefix;${stage}"
    "${CMAKE_COMMAND};-S;${ONEPASS_SOURCE_DIR}/tests/consumer;-B;${build};-G;Ninja;-DCMAKE_PREFIX_PATH=${stage};-DCMAKE_CUDA_ARCHITECTURES=${ARCH}"
    "${CMAKE_COMMAND};--build;${build}"
    "${build}/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package consumer step failed (${rc}): ${step}")
  endif()
endforeach()
