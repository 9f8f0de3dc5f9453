# The walls between the floors (ARCHITECTURE.md), checked when the build is
# configured and by the `walls` test:
# - engine/ includes no Qt header;
# - models/ includes no widget (Qt Widgets, Qt Charts, widgets/);
# - widgets/ includes no engine header: it reaches the engine through models;
# - engine/agent includes nothing of engine/control: what both speak is engine/wire;
# - engine/run names no protocol of its own: gRPC is a session (net/, grpc/), which the worker's loop and
#   hooks meet only as a protocol-neutral answer and a body codec;
# - engine/plan looks no server up: the compile is pure; DNS, the ALPN probe and a gRPC server's reflection
#   are the resolve step's (engine/resolve), reflection lent to the compile as PlanOptions::reflection;
#   nor does it start a JavaScript runtime: a script's syntax is checked by resolve/scriptsyntax.h;
# - stampede_widgets links only Qt and stampede_models (configure time).
# As a script: cmake -DSOURCE_DIR=<tree> -P cmake/walls.cmake (exit non-zero
# naming each file and line that breaks a wall).

function(stampede_wall_breaches source_dir out)
    set(breaches "")
    file(GLOB rooms LIST_DIRECTORIES true RELATIVE "${source_dir}/engine" "${source_dir}/engine/*")
    set(engine_rooms "")
    foreach(room ${rooms})
        if(IS_DIRECTORY "${source_dir}/engine/${room}")
            list(APPEND engine_rooms "${room}")
        endif()
    endforeach()
    list(JOIN engine_rooms "|" engine_alternatives)
    set(checks
        "engine|#include *<(Q[A-Z]|Qt[A-Z])|a Qt header in the engine"
        "models|#include *[<\"](widgets/|QtWidgets|QtCharts|QWidget|QChart|QDialog|QMessageBox)|a widget in models"
        "widgets|#include *[<\"](${engine_alternatives}|engine)/|an engine header in widgets"
        "engine/agent|#include *[<\"]control/|a controller's header in the agent"
        "engine/run|[Gg][Rr][Pp][Cc]|gRPC named in the run (it is a session: net/, grpc/)"
        "engine/plan|Endpoint::resolve|lookUp\\(|probeAlpn\\(|getaddrinfo|fetchByReflection\\(|a server looked up in the compile (resolve/ does it)"
        "engine/plan|script/jsruntime\\.h|JsRuntime|a script compiled in the compile (resolve/scriptsyntax.h does it)")
    foreach(check ${checks})
        string(REPLACE "|" ";" parts "${check}")
        list(GET parts 0 floor)
        list(GET parts -1 what)
        # the pattern is every part between the floor and the description
        list(LENGTH parts n)
        math(EXPR last "${n} - 2")
        set(pattern "")
        foreach(i RANGE 1 ${last})
            list(GET parts ${i} p)
            if(pattern STREQUAL "")
                set(pattern "${p}")
            else()
                set(pattern "${pattern}|${p}")
            endif()
        endforeach()
        file(GLOB_RECURSE files "${source_dir}/${floor}/*.h" "${source_dir}/${floor}/*.cpp")
        foreach(f ${files})
            file(STRINGS "${f}" lines REGEX "${pattern}")
            foreach(line ${lines})
                file(RELATIVE_PATH rel "${source_dir}" "${f}")
                list(APPEND breaches "${rel}: ${what}: ${line}")
            endforeach()
        endforeach()
    endforeach()
    set(${out} "${breaches}" PARENT_SCOPE)
endfunction()

function(stampede_check_walls)
    stampede_wall_breaches("${PROJECT_SOURCE_DIR}" breaches)
    get_target_property(libs stampede_widgets LINK_LIBRARIES)
    foreach(lib ${libs})
        if(NOT lib MATCHES "^Qt6::" AND NOT lib STREQUAL "stampede_models")
            list(APPEND breaches "widgets/CMakeLists.txt: stampede_widgets links ${lib}: it links only Qt and models")
        endif()
    endforeach()
    if(breaches)
        list(JOIN breaches "\n  " text)
        message(FATAL_ERROR "The walls between the floors (ARCHITECTURE.md) are broken:\n  ${text}")
    endif()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
    stampede_wall_breaches("${SOURCE_DIR}" breaches)
    if(breaches)
        list(JOIN breaches "\n  " text)
        message(FATAL_ERROR "The walls between the floors are broken:\n  ${text}")
    endif()
    message(STATUS "The walls hold")
endif()
