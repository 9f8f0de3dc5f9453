#!/usr/bin/python3
"""The walls between the floors hold in the tree, and the check finds each
kind of breach in a tree made to break them.
Usage: check_walls.py SOURCE_DIR CMAKE"""
import os
import subprocess
import sys
import tempfile

src, cmake = sys.argv[1], sys.argv[2]
script = os.path.join(src, "cmake", "walls.cmake")
failures = []

ok = subprocess.run([cmake, f"-DSOURCE_DIR={src}", "-P", script], capture_output=True, text=True)
if ok.returncode != 0:
    failures.append("the tree breaks a wall:\n" + ok.stderr)

with tempfile.TemporaryDirectory() as tmp:
    files = {
        "engine/core/a.h": '#include <QString>\n',
        "engine/net/b.h": '#include "core/a.h"\n',
        "models/m.h": '#include <QWidget>\n',
        "widgets/w.cpp": '#include "net/b.h"\n#include "requestitem.h"\n',
        "widgets/v.h": '#include "store/projectstore.h"\n',
        "engine/agent/x.cpp": '#include "control/controller.h"\n#include "wire/snapshotcodec.h"\n',
        "engine/run/y.cpp": '#include "net/outgoing.h"\nif (st.grpc) // the step is a gRPC call\n',
        "engine/plan/z.cpp": '#include "net/endpoint.h"\nauto ep = Endpoint::resolve(host, port, err);\n',
        "engine/plan/zz.cpp": 'ps.endpoint = Endpoint::named(host, port);\n',
        "engine/plan/js.cpp": '#include "script/jsruntime.h"\nscript::JsRuntime::thisThread().syntaxError(s, n);\n',
        "engine/plan/text.cpp": '#include "script/scriptcheck.h"\n',
    }
    os.makedirs(os.path.join(tmp, "engine", "store"))
    for name, text in files.items():
        path = os.path.join(tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        open(path, "w").write(text)
    bad = subprocess.run([cmake, f"-DSOURCE_DIR={tmp}", "-P", script], capture_output=True, text=True)
    if bad.returncode == 0:
        failures.append("a tree that breaks every wall passed")
    for expected in ("engine/core/a.h: a Qt header in the engine", "models/m.h: a widget in models",
                     "widgets/w.cpp: an engine header in widgets", "widgets/v.h: an engine header in widgets",
                     "engine/agent/x.cpp: a controller's header in the agent",
                     "engine/run/y.cpp: gRPC named in the run",
                     "engine/plan/z.cpp: a server looked up in the compile",
                     "engine/plan/js.cpp: a script compiled in the compile"):
        if expected not in bad.stderr:
            failures.append(f"not found: {expected}\n{bad.stderr}")
    if "requestitem.h" in bad.stderr or "engine/net/b.h" in bad.stderr or "snapshotcodec" in bad.stderr \
            or "net/outgoing.h" in bad.stderr or "zz.cpp" in bad.stderr or "text.cpp" in bad.stderr:
        failures.append("a model's header or an engine room including another was taken for a breach")

for f in failures:
    print("FAIL:", f)
print("walls:", "broken" if failures else "hold, and every kind of breach is found")
sys.exit(1 if failures else 0)
