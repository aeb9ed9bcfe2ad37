# ctest driver: compiling onepass for a GPU below compute capability 8.0 stops with the
# one message that names the requirement (detail/config.cuh), not with errors from deep
# inside a kernel. Invoked as:
#   cmake -DNVCC=... -DONEPASS_SOURCE_DIR=... -DWORK_DIR=... -P check_arch_requirement.cmake
execute_process(COMMAND "${NVCC}" -std=c++17 -arch=sm_75 -I "${ONEPASS_SOURCE_DIR}/include"
                        -c "${ONEPASS_SOURCE_DIR}/examples/scan.cu" -o "${WORK_DIR}/arch_requirement.o"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message(FATAL_ERROR "nvcc -arch=sm_75 compiled examples/scan.cu; it should have stopped")
endif()
string(REGEX MATCHALL "error:" errors "${out}${err}")
list(LENGTH errors error_count)
if(NOT "${out}${err}" MATCHES "onepass needs a GPU of compute capability 8.0 or newer" OR NOT error_count EQUAL 1)
  message(FATAL_ERROR "expected exactly the requirement message, nvcc printed (${error_count} errors):\n${out}${err}")
endif()
message(STATUS "nvcc -arch=sm_75 stops with: onepass needs a GPU of compute capability 8.0 or newer")
