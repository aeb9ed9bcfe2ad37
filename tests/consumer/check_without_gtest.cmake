# ctest driver: a user who only wants the headers configures onepass without GoogleTest:
# the tests are left out with a message and nothing fails. Configure only (no build).
# Invoked as: cmake -DONEPASS_SOURCE_DIR=... -DWORK_DIR=... -DARCH=... -P check_without_gtest.cmake
set(build "${WORK_DIR}/without-gtest-build")
file(REMOVE_RECURSE "${build}")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${ONEPASS_SOURCE_DIR}" -B "${build}" -G Ninja
                        -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON -DONEPASS_BUILD_TESTS=ON
                        -DONEPASS_BUILD_BENCH=OFF -DONEPASS_BUILD_EXAMPLES=OFF -DONEPASS_TSAN_TESTS=OFF
                        -DCMAKE_CUDA_ARCHITECTURES=${ARCH}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring without GoogleTest failed (${rc}):\n${out}${err}")
endif()
if(NOT "${out}${err}" MATCHES "GoogleTest not found")
  message(FATAL_ERROR "configured without GoogleTest but said nothing about the tests:\n${out}${err}")
endif()
file(REMOVE_RECURSE "${build}")
message(STATUS "configured without GoogleTest: the tests were left out with a message")
