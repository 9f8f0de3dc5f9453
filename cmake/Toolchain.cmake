# Compiler settings shared by every target: warnings, ccache, sanitizers.
find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM)
    set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()

add_compile_options(-Wall -Wextra -Wno-unused-parameter)

set(STAMPEDE_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
if(STAMPEDE_SANITIZE)
    add_compile_options(-fsanitize=${STAMPEDE_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    add_link_options(-fsanitize=${STAMPEDE_SANITIZE})
endif()

# Qt hygiene (as hotspot does): no implicit conversions between QString and char*.
add_compile_definitions(QT_NO_CAST_FROM_ASCII QT_NO_CAST_TO_ASCII QT_USE_QSTRINGBUILDER)
