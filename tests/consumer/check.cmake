# ctest driver for the package test: install onepass into a staging prefix, configure and
# build tests/consumer against it with find_package(onepass), run it.
# Invoked as: cmake -DONEPASS_BINARY_DIR=... -DONEPASS_SOURCE_DIR=... -DARCH=... -P check.cmake
set(stage "${ONEPASS_BINARY_DIR}/consumer-stage")
set(build "${ONEPASS_BINARY_DIR}/consumer-build")
file(REMOVE_RECURSE "${stage}" "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${ONEPASS_BINARY_DIR}" --prefix "${stage}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "package consumer: install failed (${rc})")
endif()
# The library installs alone: its public headers, not the teaching ladders (onepass::ladder).
if(NOT EXISTS "${stage}/include/onepass/scan.cuh")
  message(FATAL_ERROR "package consumer: ${stage}/include/onepass/scan.cuh was not installed")
endif()
if(EXISTS "${stage}/include/onepass/ladder")
  message(FATAL_ERROR "package consumer: the ladder was installed (${stage}/include/onepass/ladder)")
endif()
file(GLOB_RECURSE installed "${stage}/include/*")
foreach(header IN LISTS installed)
  file(STRINGS "${header}" ladder_includes REGEX "include \"onepass/ladder/")
  if(ladder_includes)
    message(FATAL_ERROR "package consumer: ${header} includes the ladder: ${ladder_includes}")
  endif()
endforeach()
foreach(step
    "${CMAKE_COMMAND};-S;${ONEPASS_SOURCE_DIR}/tests/consumer;-B;${build};-G;Ninja;-DCMAKE_PREFIX_PATH=${stage};-DCMAKE_CUDA_ARCHITECTURES=${ARCH}"
    "${CMAKE_COMMAND};--build;${build}"
    "${build}/consumer")
  execute_process(COMMAND ${step} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "package consumer step failed (${rc}): ${step}")
  endif()
endforeach()
