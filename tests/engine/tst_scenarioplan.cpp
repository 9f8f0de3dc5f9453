#include "core/text.h"
#include "core/textfile.h"
#include "load/closedload.h"
#include "plan/checkplan.h"
#include "plan/replaystep.h"
#include "plan/scenarioplan.h"
#include "resolve/scriptsyntax.h"
#include "run/requestrenderer.h"
#include "run/stepscripts.h"
#include "stampede/v1/scenario.pb.h"

#include <QTemporaryDir>
#include <QTest>
#include <fstream>

using namespace stampede;

class TestScenarioPlan : public QObject
{
    Q_OBJECT
private:
    static std::vector<std::string> errorsOf(const std::string& json, const std::string& baseDir = ".")
    {
        v1::Scenario s;
        std::string err;
        if (!parseScenarioJson(json, s, err))
            return {"json: " + err};
        std::vector<PlanError> errors;
        PlanOptions o;
        o.baseDir = baseDir;
        // a script's syntax is checked beside the compile (resolve/scriptsyntax.h), as every caller that runs one does
        compileScenario(s, o, errors);
        checkScriptSyntax(s, errors);
        std::vector<std::string> out;
        for (const auto& e : errors)
            out.push_back(e.text());
        return out;
    }

private slots:
    void validationNamesTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const std::string load = "\"load\": {\"closed\": {\"users\": 1}}";
        QTest::addRow("unknown variable")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}, {\"request\": "
                                      "{\"url\": \"http://127.0.0.1/u/${userId}\"}}], " +
                                      load + "}")
            << "steps[1].request.url: unknown variable ${userId}";
        // issue 50: a WebSocket step's faults, named by its own fields
        const auto ws = [&](const std::string& step, const std::string& top = {}) {
            return QString::fromStdString("{" + top + "\"steps\": [" + step + "], " + load + "}");
        };
        QTest::addRow("ws scheme") << ws("{\"websocket\": {\"url\": \"http://127.0.0.1/chat\"}}")
                                   << "steps[0].websocket.url: a WebSocket URL starts with ws:// or wss://";
        QTest::addRow("ws variable") << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/${nope}\"}}")
                                     << "steps[0].websocket.url: unknown variable ${nope}";
        QTest::addRow("ws message variable")
            << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/\", \"send\": [{\"text\": \"${nope}\"}]}}")
            << "steps[0].websocket.send[0].text: unknown variable ${nope}";
        QTest::addRow("ws and request")
            << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/\"}, \"request\": {\"url\": \"http://127.0.0.1/\"}}")
            << "steps[0].websocket: a step is a request, a gRPC call, a WebSocket conversation or an event stream";
        QTest::addRow("sse and grpc")
            << ws("{\"sse\": {\"url\": \"http://127.0.0.1/\"}, \"grpc\": {\"method\": \"a.B/C\"}}")
            << "steps[0].sse: a step is a request, a gRPC call, a WebSocket conversation";
        QTest::addRow("ws request/reply receives too few")
            << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/\", \"requestReply\": true, \"receive\": 1, "
                  "\"send\": [{\"text\": \"a\"}, {\"text\": \"b\"}]}}")
            << "steps[0].websocket.receive: request/reply awaits a reply to each message";
        QTest::addRow("ws subprotocol")
            << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/\", \"subprotocols\": [\"a b\"]}}")
            << "steps[0].websocket.subprotocols[0]: \"a b\" is not a subprotocol's name";
        QTest::addRow("ws header") << ws("{\"websocket\": {\"url\": \"ws://127.0.0.1/\", \"headers\": [{\"name\": \"a "
                                         "b\", \"value\": \"1\"}]}}")
                                   << "steps[0].websocket.headers[0].name: \"a b\" is not a header name";
        // scripts: a syntax error at its line, a call not run here, a step they cannot go on
        QTest::addRow("script syntax")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, \"testScript\": "
                                      "\"let a = 1;\\nlet = ;\"}], " +
                                      load + "}")
            << "steps[0].testScript: line 2: SyntaxError: expected expression, got ';'";
        QTest::addRow("script unsupported")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, \"preRequestScript\": "
                   "\"require('fs').readFileSync('/etc/passwd');\"}], " +
                   load + "}")
            << "steps[0].preRequestScript: line 1: require('fs') is not run by Stampede";
        QTest::addRow("unknown dynamic variable")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/${$randomColor}\"}}], " +
                                      load + "}")
            << "steps[0].request.url: unknown variable ${$randomColor}";
        // step options (test plans): each fault named by its field
        const auto step = [&](const std::string& options, const std::string& loadJson = "") {
            return QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, " + options +
                                          "}], " + (loadJson.empty() ? load : loadJson) + "}");
        };
        QTest::addRow("onError unknown") << step("\"onError\": \"ignore\"")
                                         << "steps[0].onError: \"ignore\" is not an action: continue, nextIteration, "
                                            "stopUser or stopRun";
        QTest::addRow("retry of none") << step("\"retry\": {\"times\": 0}")
                                       << "steps[0].retry.times: from 1 to 10 (got 0)";
        QTest::addRow("retry of eleven") << step("\"retry\": {\"times\": 11}")
                                         << "steps[0].retry.times: from 1 to 10 (got 11)";
        QTest::addRow("retry backoff past an hour") << step("\"retry\": {\"times\": 1, \"backoff\": \"2h\"}")
                                                    << "steps[0].retry.backoff: must be from 0 to 1h (got 7200s)";
        QTest::addRow("repeat past a thousand")
            << step("\"repeat\": 1001") << "steps[0].repeat: at most 1000 (got 1001)";
        QTest::addRow("a rendezvous of one")
            << step("\"rendezvous\": {\"users\": 1}")
            << "steps[0].rendezvous.users: at least 2 users meet at a rendezvous (got 1)";
        QTest::addRow("a rendezvous larger than the users")
            << step("\"rendezvous\": {\"users\": 10}", "\"load\": {\"closed\": {\"users\": 4}}")
            << "steps[0].rendezvous.users: 10 users can never meet: at most 4 virtual users are under way at once";
        QTest::addRow("a group that is not contiguous")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/a\"}, \"group\": \"g\"}, "
                   "{\"request\": {\"url\": \"http://127.0.0.1/b\"}}, "
                   "{\"request\": {\"url\": \"http://127.0.0.1/c\"}, \"group\": \"g\"}], " +
                   load + "}")
            << "steps[2].group: the steps of group \"g\" must follow one another (steps[0] is in it, the steps "
               "between are not)";
        // test plans: the plan's own faults, and each scenario's under its field
        const std::string sc =
            "{\"name\": \"a\", \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], " + load + "}";
        QTest::addRow("a plan's scenario without load")
            << QString::fromStdString("{\"scenarios\": [{\"name\": \"a\", \"steps\": [{\"request\": {\"url\": "
                                      "\"http://127.0.0.1/\"}}]}]}")
            << "scenarios[0].load: choose an open model (load.open.rate) or a closed model (load.closed.users)";
        QTest::addRow("two scenarios of one name")
            << QString::fromStdString("{\"scenarios\": [" + sc + ", " + sc + "]}")
            << "scenarios[1].name: two scenarios are named \"a\"";
        QTest::addRow("a plan's scenario without a name")
            << QString::fromStdString(
                   "{\"scenarios\": [{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], " + load + "}]}")
            << "scenarios[0].name: a plan's scenario needs a name";
        QTest::addRow("a plan with steps of its own")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"scenarios\": [" + sc + "]}")
            << "steps: a plan's steps are its scenarios'";
        QTest::addRow("a setup step that needs a user's data set")
            << QString::fromStdString(
                   "{\"variables\": [{\"name\": \"users\", \"csv\": {\"data\": \"id\\n1\\n\"}}], "
                   "\"setup\": [{\"request\": {\"url\": \"http://127.0.0.1/u/${users.id}\"}}], \"scenarios\": [" +
                   sc + "]}")
            << "setup[0].request.url: ${users.id} is a data set's value: the setup runs once, as no virtual user";
        QTest::addRow("a plan's threshold naming nothing")
            << QString::fromStdString("{\"scenarios\": [" + sc + "], \"thresholds\": [{\"expr\": \"b: p99 < 1s\"}]}")
            << "thresholds[0].expr: no scenario, step or group is named \"b\"";
        QTest::addRow("a plan's scenario's own fault")
            << QString::fromStdString("{\"scenarios\": [{\"name\": \"a\", \"steps\": [{\"request\": {\"url\": "
                                      "\"http://127.0.0.1/${nope}\"}}], " +
                                      load + "}]}")
            << "scenarios[0].steps[0].request.url: unknown variable ${nope}";
        QTest::addRow("unknown variable in a header")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"headers\": "
                                      "[{\"name\": \"A\", \"value\": \"${x}\"}]}}], " +
                                      load + "}")
            << "steps[0].request.headers[0].value: unknown variable ${x}";
        QTest::addRow("csv without column")
            << QString::fromStdString("{\"variables\": [{\"name\": \"u\", \"csv\": {\"data\": \"id\\n1\\n\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/${u}\"}}], " +
                                      load + "}")
            << "steps[0].request.url: variable ${u} is a CSV data set: name a column, e.g. ${u.id}";
        QTest::addRow("unknown column")
            << QString::fromStdString("{\"variables\": [{\"name\": \"u\", \"csv\": {\"data\": \"id\\n1\\n\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/${u.name}\"}}], " +
                                      load + "}")
            << "steps[0].request.url: unknown column ${u.name}";
        // the one rule of the wire: no line break from a URL, a header or a constant
        QTest::addRow("line break in the URL")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/x HTTP/1.1\\r\\nX-Smug: "
                                      "1\\r\\n\\r\\nGET /y\"}}], " +
                                      load + "}")
            << "steps[0].request.url: the path holds a line break (CR) at byte 11";
        QTest::addRow("line break from a constant in the URL")
            << QString::fromStdString("{\"variables\": [{\"name\": \"v\", \"constant\": {\"value\": \"a\\nb\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/${v}\"}}], " +
                                      load + "}")
            << "steps[0].request.url: the path holds a line break (LF) at byte 2";
        QTest::addRow("line break from a constant in a header")
            << QString::fromStdString(
                   "{\"variables\": [{\"name\": \"v\", \"constant\": {\"value\": \"a\\r\\nX: 1\"}}], "
                   "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"headers\": "
                   "[{\"name\": \"A\", \"value\": \"${v}\"}]}}], " +
                   load + "}")
            << "steps[0].request.headers[0].value: the value holds a line break (CR) at byte 1";
        QTest::addRow("NUL in a header")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"headers\": "
                                      "[{\"name\": \"A\", \"value\": \"a\\u0000b\"}]}}], " +
                                      load + "}")
            << "steps[0].request.headers[0].value: the value holds a NUL byte at byte 1";
        // a file has the flags' bounds (the engine spun on 1e308/s and never ended a 1 s run)
        QTest::addRow("rate 1e308")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 1e308}}}"
            << "load.open.rate: 1e+308 is out of range (at most 10,000,000 iterations/s)";
        QTest::addRow("iterations in the open model")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 1}}, "
               "\"iterations\": 2}"
            << "iterations: iterations per virtual user are the closed model's (load.closed.users)";
        QTest::addRow("iterations past a million")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"closed\": {\"users\": 1}}, "
               "\"iterations\": 1000001}"
            << "iterations: at most 1000000 (got 1000001)";
        QTest::addRow("stage target 1e308")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 1}, "
               "\"stages\": [{\"kind\": \"STAGE_RAMP\", \"duration\": \"1s\", \"target\": 1e308}]}}"
            << "load.stages[0].target: 1e+308 is out of range (at most 10,000,000 iterations/s)";
        QTest::addRow("users past a million")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"closed\": {\"users\": "
               "2000000}}}"
            << "load.closed.users: 2e+06 is out of range (at most 1,000,000 users)";
        QTest::addRow("duration of a century")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 1}}, "
               "\"duration\": \"3153600000s\"}"
            << "duration: at most 720 h";
        QTest::addRow("a request timeout of 2 h")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"timeout\": \"2h\"}}], " + load + "}")
            << "steps[0].request.timeout: at most 1 h";
        QTest::addRow("arrays 100,000 deep")
            << QString::fromStdString("{\"steps\": " + std::string(100000, '[') + std::string(100000, ']') + "}")
            << "json: nested more than 64 levels deep (at byte 73)";
        QTest::addRow("negative rate")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": -5}}}"
            << "load.open.rate: must not be negative (got -5)";
        QTest::addRow("zero duration")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"duration\": \"0s\", " + load + "}")
            << "duration: must be positive (got 0s)";
        QTest::addRow("no model")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}]}"
            << "load: choose an open model (load.open.rate) or a closed model (load.closed.users)";
        QTest::addRow("no steps") << QString::fromStdString("{" + load + "}") << "steps: at least one step is needed";
        {
            std::string many = "{\"steps\": [";
            for (int i = 0; i < 101; ++i)
                many += std::string(i ? "," : "") + "{\"request\": {\"url\": \"http://127.0.0.1/\"}}";
            QTest::addRow("too many steps")
                << QString::fromStdString(many + "], " + load + "}") << "steps: at most 100 steps (got 101)";
        }
        QTest::addRow("stage steps past the bound")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"closed\": {\"users\": 1}, "
               "\"stages\": [{\"kind\": \"STAGE_STEP\", \"duration\": \"10s\", \"target\": 10, \"steps\": "
               "4000000000}]}}"
            << "load.stages[0].steps: at most 10000 (got 4000000000)";
        QTest::addRow("backlog past the bound")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 1, "
               "\"backlogLimit\": 2000000}}}"
            << "load.open.backlogLimit: at most 1000000 (got 2000000)";
        QTest::addRow("bad url") << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"ftp://x/\"}}], " +
                                                           load + "}")
                                 << "steps[0].request.url: unsupported scheme \"ftp\" (http and https are supported)";
        QTest::addRow("host from a per-iteration value")
            << QString::fromStdString("{\"variables\": [{\"name\": \"h\", \"uuid\": {}}], \"steps\": [{\"request\": "
                                      "{\"url\": \"http://${h}/\"}}], " +
                                      load + "}")
            << "steps[0].request.url: the scheme and host must be written out or come from constants, and a / must "
               "follow them: \"http://${h}/\"";
        QTest::addRow("ragged csv")
            << QString::fromStdString("{\"variables\": [{\"name\": \"u\", \"csv\": {\"data\": \"a,b\\n1,2\\n3\\n\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/${u.a}\"}}], " +
                                      load + "}")
            << "variables[0].csv.data: inline data line 3: 1 field, the header has 2";
        QTest::addRow("missing csv file")
            << QString::fromStdString("{\"variables\": [{\"name\": \"u\", \"csv\": {\"file\": \"no-such.csv\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], " +
                                      load + "}")
            << "variables[0].csv.file: cannot read \"no-such.csv\": No such file or directory";
        QTest::addRow("increment step")
            << QString::fromStdString(
                   "{\"variables\": [{\"name\": \"n\", \"increment\": {\"min\": 1, \"max\": 5, \"step\": -1}}], "
                   "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], " +
                   load + "}")
            << "variables[0].increment.step: must be positive (got -1)";
        QTest::addRow("threshold") << QString::fromStdString(
                                          "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], "
                                          "\"thresholds\": [{\"expr\": \"p99 < fast\"}], " +
                                          load + "}")
                                   << "thresholds[0].expr: \"p99 < fast\": \"fast\" is not a duration such as 200ms";
        QTest::addRow("ramp without target")
            << "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 5}, "
               "\"stages\": [{\"kind\": \"STAGE_RAMP\", \"duration\": \"1s\"}]}}"
            << "load.stages[0].target: a ramp, step or spike stage needs a target";
        QTest::addRow("streams without HTTP/2")
            << QString::fromStdString(
                   "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"streams\": 4, " + load + "}")
            << "streams: streams are HTTP/2's";
        QTest::addRow("client certificate without key")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"https://127.0.0.1/\"}}], "
                                      "\"tls\": {\"certPem\": \"x\"}, " +
                                      load + "}")
            << "tls.cert_file: a client certificate needs both the certificate and its key";
        const auto think = [&](const std::string& t) {
            return QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, "
                                          "\"thinkTime\": " +
                                          t + "}], " + load + "}");
        };
        QTest::addRow("think time: two kinds") << think("{\"fixed\": \"1s\", \"uniform\": [\"1s\", \"2s\"]}")
                                               << "steps[0].thinkTime: give one distribution, not 2";
        QTest::addRow("think time: none")
            << think("{}") << "steps[0].thinkTime: give one of fixed, uniform, normal or exponential";
        QTest::addRow("think time: one bound")
            << think("{\"uniform\": [\"1s\"]}") << "steps[0].thinkTime.uniform: give [min, max] (got 1 values)";
        QTest::addRow("think time: upside down") << think("{\"uniform\": [\"300ms\", \"100ms\"]}")
                                                 << "steps[0].thinkTime.uniform: the maximum is below the minimum";
        QTest::addRow("think time: no mean")
            << think("{\"normal\": {\"sd\": \"50ms\"}}") << "steps[0].thinkTime.normal.mean: a mean is needed";
        QTest::addRow("think time: zero mean") << think("{\"exponential\": {\"mean\": \"0s\"}}")
                                               << "steps[0].thinkTime.exponential.mean: must be positive";
        QTest::addRow("think time: too long")
            << think("{\"fixed\": \"2h\"}") << "steps[0].thinkTime.fixed: must be from 0 to 1h (got 7200s)";
        QTest::addRow("think time: unknown distribution") << think("{\"poisson\": {\"mean\": \"1s\"}}") << "json: ";
        QTest::addRow("pacing: negative")
            << QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": "
                                      "{\"closed\": {\"users\": 1, \"pacing\": \"-1s\"}}}")
            << "load.closed.pacing: must be from 0 to 1h (got -1s)";
        QTest::addRow("malformed json") << "{\"steps\": ["
                                        << "json: ";
        // checks and extraction (issue "Business flows")
        const auto flow = [&](const std::string& fields) {
            return QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, " + fields +
                                          "}], " + load + "}");
        };
        QTest::addRow("check: json path does not parse")
            << flow("\"checks\": [{\"jsonPath\": \"$.a[\", \"exists\": true}]") << "steps[0].checks[0].jsonPath: ";
        QTest::addRow("check: regex does not compile")
            << flow("\"checks\": [{\"header\": \"X\", \"matches\": \"(a\"}]")
            << "steps[0].checks[0].matches: the regular expression does not compile at offset 2";
        QTest::addRow("check: no condition")
            << flow("\"checks\": [{\"name\": \"x\"}]") << "steps[0].checks[0]: a check needs a condition";
        QTest::addRow("check: json path without a test")
            << flow("\"checks\": [{\"jsonPath\": \"$.code\"}]")
            << "steps[0].checks[0]: give a condition: \"equals\", \"matches\" or \"exists\"";
        QTest::addRow("check: two subjects") << flow("\"checks\": [{\"status\": [200], \"maxTimeMs\": 5}]")
                                             << "steps[0].checks[0]: give one subject per check, not 2";
        QTest::addRow("check: status out of range")
            << flow("\"checks\": [{\"status\": [200, 700]}]")
            << "steps[0].checks[0].status[1]: an HTTP status is a whole number from 100 to 599";
        QTest::addRow("check: same name twice")
            << flow("\"checks\": [{\"name\": \"a\", \"status\": [200]}, {\"name\": \"a\", \"maxTimeMs\": 9}]")
            << "steps[0].checks[1].name: the step has another check named \"a\"";
        QTest::addRow("check: equals on status")
            << flow("\"checks\": [{\"status\": [200], \"equals\": \"1\"}]")
            << "steps[0].checks[0]: \"equals\", \"matches\" and \"exists\" go with \"jsonPath\" or \"header\"";
        QTest::addRow("extract: nowhere")
            << flow("\"extract\": [{\"name\": \"t\"}]") << "steps[0].extract[0]: say where the value is";
        QTest::addRow("extract: bad name") << flow("\"extract\": [{\"name\": \"1t\", \"header\": \"X\"}]")
                                           << "steps[0].extract[0].name: \"1t\" is not a variable name";
        QTest::addRow("extract: group past the regex's")
            << flow("\"extract\": [{\"name\": \"t\", \"regex\": \"a(b)\", \"group\": 2}]")
            << "steps[0].extract[0].group: the regex has 1 group(s), not 2";
        QTest::addRow("extract: into a data set's name")
            << QString::fromStdString("{\"variables\": [{\"name\": \"t\", \"csv\": {\"data\": \"a\\n1\\n\"}}], "
                                      "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, \"extract\": "
                                      "[{\"name\": \"t\", \"header\": \"X\"}]}], " +
                                      load + "}")
            << "steps[0].extract[0].name: \"t\" is a data set's name, with columns";
        QTest::addRow("redirects: too many")
            << QString::fromStdString(
                   "{\"followRedirects\": 21, \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], " + load +
                   "}")
            << "followRedirects: at most 20 hops (got 21)";
        const auto breaker = [&](const std::string& rules) {
            return QString::fromStdString("{\"steps\": [{\"name\": \"login\", \"request\": {\"url\": "
                                          "\"http://127.0.0.1/\"}}], \"breaker\": {\"rules\": [" +
                                          rules + "]}, " + load + "}");
        };
        QTest::addRow("breaker: condition does not parse")
            << breaker("{\"when\": \"p99 >> 1ms\", \"action\": \"stop\"}") << "breaker.rules[0].when: ";
        QTest::addRow("breaker: unknown metric") << breaker("{\"when\": \"lag > 1ms\", \"action\": \"stop\"}")
                                                 << "breaker.rules[0].when: \"lag > 1ms\": unknown metric \"lag\"";
        QTest::addRow("breaker: window under 1s")
            << breaker("{\"when\": \"p99 > 1ms\", \"window\": \"0.5s\", \"action\": \"stop\"}")
            << "breaker.rules[0].window: a window is whole seconds, from 1s to 3600s";
        QTest::addRow("breaker: unknown action")
            << breaker("{\"when\": \"p99 > 1ms\", \"action\": \"panic\"}")
            << "breaker.rules[0].action: give \"warn\", \"stop\", \"rollback\" or {\"degrade\": PERCENT}";
        QTest::addRow("breaker: degrade everything")
            << breaker("{\"when\": \"p99 > 1ms\", \"action\": {\"degrade\": 100}}")
            << "breaker.rules[0].action.degrade: a percentage from 1 to 90";
        QTest::addRow("breaker: unknown step")
            << breaker("{\"when\": \"p99 > 1ms\", \"action\": \"warn\", \"step\": \"order\"}")
            << "breaker.rules[0].step: no step is named \"order\"";
        const auto server = [&](const std::string& sources, const std::string& rest = "") {
            return QString::fromStdString("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], "
                                          "\"serverMetrics\": [" +
                                          sources + "]" + rest + ", " + load + "}");
        };
        QTest::addRow("server metric: no source")
            << server("{\"name\": \"cpu\", \"series\": \"x\"}")
            << "serverMetrics[0]: give one of \"prometheus\" (with \"query\") or \"scrape\" (with \"series\")";
        QTest::addRow("server metric: no query")
            << server("{\"name\": \"cpu\", \"prometheus\": \"http://127.0.0.1:9090\"}")
            << "serverMetrics[0].query: a PromQL query giving one number";
        QTest::addRow("server metric: bad URL")
            << server("{\"name\": \"cpu\", \"scrape\": \"127.0.0.1:9100\", \"series\": \"x\"}")
            << "serverMetrics[0].scrape: ";
        QTest::addRow("server metric: unknown in a rule")
            << server("{\"name\": \"cpu\", \"scrape\": \"http://127.0.0.1:9100/metrics\", \"series\": \"x\"}",
                      ", \"breaker\": {\"rules\": [{\"when\": \"server:db_cpu > 80\", \"action\": \"stop\"}]}")
            << "breaker.rules[0].when: no server metric is named \"db_cpu\"";
        QTest::addRow("server metric: unknown in a threshold")
            << server("{\"name\": \"cpu\", \"scrape\": \"http://127.0.0.1:9100/metrics\", \"series\": \"x\"}",
                      ", \"thresholds\": [{\"expr\": \"server:mem < 80\"}]")
            << "thresholds[0].expr: no server metric is named \"mem\"";
        QTest::addRow("threshold: unknown step")
            << QString::fromStdString("{\"thresholds\": [{\"expr\": \"nope: p99 < 1s\"}], \"steps\": [{\"request\": "
                                      "{\"url\": \"http://127.0.0.1/\"}}], " +
                                      load + "}")
            << "thresholds[0].expr: no step is named \"nope\"";
    }
    // A plan's scenarios, their steps named SCENARIO/STEP, the setup's names
    // constants of every scenario, and what thresholds may name.
    void aPlanCompilesItsScenarios()
    {
        const auto errors = errorsOf(
            "{\"name\": \"p\", \"setup\": [{\"request\": {\"url\": \"http://127.0.0.1/login\"}, \"extract\": "
            "[{\"name\": \"token\", \"jsonPath\": \"$.t\"}]}], \"scenarios\": ["
            "{\"name\": \"a\", \"steps\": [{\"name\": \"x\", \"request\": {\"url\": \"http://127.0.0.1/${token}\"}, "
            "\"group\": \"g\"}], \"load\": {\"open\": {\"rate\": 5}}, \"duration\": \"2s\"},"
            "{\"name\": \"b\", \"startAfter\": \"1s\", \"steps\": [{\"name\": \"y\", \"request\": {\"url\": "
            "\"http://127.0.0.1/\"}}], \"load\": {\"closed\": {\"users\": 2}}, \"duration\": \"3s\"}],"
            "\"thresholds\": [{\"expr\": \"a: p99 < 1s\"}, {\"expr\": \"b/y: error_rate < 1%\"}, "
            "{\"expr\": \"group g: p95 < 1s\"}]}");
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        v1::Scenario s;
        std::string err;
        QVERIFY(
            parseScenarioJson("{\"scenarios\": [{\"name\": \"a\", \"steps\": [{\"name\": \"x\", \"request\": "
                              "{\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"open\": {\"rate\": 5}}, "
                              "\"duration\": \"2s\"}, {\"name\": \"b\", \"startAfter\": \"1s\", \"steps\": [{\"name\": "
                              "\"y\", \"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"closed\": "
                              "{\"users\": 2}}, \"duration\": \"3s\"}]}",
                              s, err));
        std::vector<PlanError> errs;
        PlanOptions o;
        const auto plan = compileScenario(s, o, errs);
        QVERIFY(plan);
        QCOMPARE(plan->scenarios.size(), std::size_t(2));
        QCOMPARE(plan->steps.size(), std::size_t(2));
        QCOMPARE(plan->steps[1].name, std::string("b/y"));
        QCOMPARE(plan->places[1].firstStep, 1u);
        QCOMPARE(plan->places[1].startAfter, kNanosPerSecond);
        QCOMPARE(plan->duration, 4 * kNanosPerSecond); // b ends last: 1 s + 3 s
        const auto names = plan->measuredNames();
        QVERIFY(std::find(names.begin(), names.end(), "b") != names.end());
    }

    void validationNamesTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        const auto errors = errorsOf(json.toStdString());
        QVERIFY2(!errors.empty(), "expected an error");
        QVERIFY2(QString::fromStdString(errors.front()).startsWith(message),
                 qPrintable(QString::fromStdString(errors.front())));
    }

    // The compile reads a script as text and starts no runtime: a script that does not parse compiles (its
    // pm.test names are the step's checks), and the syntax check beside it names the field and the line.
    void aScriptsSyntaxIsCheckedAfterTheCompile()
    {
        v1::Scenario s;
        std::string err;
        QVERIFY(
            parseScenarioJson("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}, {\"request\": "
                              "{\"url\": \"http://127.0.0.1/\"}, \"preRequestScript\": \"pm.test('ok', () => {});\", "
                              "\"testScript\": \"pm.test('t', () => {});\\n\\nif (\"}], "
                              "\"load\": {\"closed\": {\"users\": 1}}}",
                              s, err));
        std::vector<PlanError> errors;
        const auto plan = compileScenario(s, {}, errors);
        QVERIFY(plan);
        QVERIFY(errors.empty());
        QCOMPARE(plan->steps[1].checks.size(), std::size_t(2));
        QVERIFY(!checkScriptSyntax(s, errors));
        QCOMPARE(errors.size(), std::size_t(1));
        QCOMPARE(errors[0].field, std::string("steps[1].testScript"));
        QVERIFY2(errors[0].message.rfind("line 3: SyntaxError", 0) == 0, errors[0].message.c_str());
        unsigned line = 0;
        QVERIFY(scriptSyntaxError("let a = 1;", &line).empty());
        QCOMPARE(scriptSyntaxError("let a = 1;\nlet = ;", &line).substr(0, 19), std::string("line 2: SyntaxError"));
        QCOMPARE(line, 2u);
    }

    // Think times as distributions, in the command line's units, and pacing.
    // Extracted names are per-user variables: a step that uses one is
    // rendered when sent, and the other values it reads are saved per slot.
    void extractedNamesAreLateVariables()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"variables\": [{\"name\": \"n\", \"increment\": {\"min\": 1, \"max\": 9}}],"
            "\"steps\": ["
            "{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1/login?n=${n}\"}, \"checks\": "
            "[{\"status\": [200, 201]}, {\"name\": \"biz\", \"jsonPath\": \"$.code\", \"equals\": \"0\"}], "
            "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.data.token\"}]},"
            "{\"request\": {\"url\": \"http://127.0.0.1/cart/${n}\", \"headers\": [{\"name\": \"A\", "
            "\"value\": \"${token}\"}]}, \"checks\": [{\"header\": \"X\", \"exists\": false}]}],"
            "\"cookies\": true, \"followRedirects\": 3, \"load\": {\"closed\": {\"users\": 2}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        QCOMPARE(plan->steps[0].checks.size(), std::size_t(2));
        QCOMPARE(plan->steps[0].checks[0].name, std::string("status 200 201"));
        QCOMPARE(plan->steps[0].checks[1].name, std::string("biz"));
        QCOMPARE(plan->steps[0].needs,
                 unsigned(kNeedsBody | kNeedsHeaders)); // the body for $.code, headers for cookies
        QVERIFY(plan->steps[0].extracted.empty());
        QCOMPARE(plan->steps[1].extracted.size(), std::size_t(1));
        QCOMPARE(plan->variables[plan->steps[1].extracted[0]].name, std::string("token"));
        QVERIFY(plan->variables[plan->steps[1].extracted[0]].extracted);
        QCOMPARE(plan->savedRefs.size(), std::size_t(1)); // ${n}, read late by the cart step
        QCOMPARE(plan->variables[plan->savedRefs[0].variable].name, std::string("n"));
        QVERIFY(plan->cookies);
        QCOMPARE(plan->followRedirects, 3u);
    }

    // Issue 28: what a test script sets reaches the user's values as Postman
    // resolves it: a name set in a scope below the one holding it keeps the
    // value above; unset there, the lower scope's value is taken; cleared,
    // none; a name the plan does not know is kept for the user's next script.
    void stepScriptsKeepPostmansPrecedence()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"steps\": [{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1/login\"}, \"testScript\": "
            "\"const i = pm.info.iteration;\\n"
            "if (i === 0) { pm.environment.set('token', 'e'); pm.globals.set('token', 'g'); pm.globals.set('mine', "
            "'m'); }\\n"
            "if (i === 1) { pm.test('kept', () => pm.expect(pm.globals.get('mine')).to.eql('m'));\\n"
            "  pm.test('env', () => pm.expect(pm.variables.get('token')).to.eql('e'));\\n"
            "  pm.environment.unset('token'); pm.globals.set('token', 'g2'); }\\n"
            "if (i === 2) pm.globals.clear();\"}, {\"request\": {\"url\": \"http://127.0.0.1/x?t=${token}\"}}], "
            "\"load\": {\"closed\": {\"users\": 1}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        const auto token = std::size_t(std::find_if(plan->variables.begin(), plan->variables.end(),
                                                    [](const PlannedVariable& v) { return v.name == "token"; }) -
                                       plan->variables.begin());
        QVERIFY(token < plan->variables.size() && plan->variables[token].extracted);
        StepScripts scripts(*plan, 1);
        std::vector<std::string> values(plan->variables.size());
        std::vector<bool> isSet(plan->variables.size(), false);
        const auto read = [](std::uint16_t, int, std::string&) { return false; };
        AnswerView answer;
        answer.status = 200;
        answer.body = "{}";
        ScriptRun r = scripts.runTest(0, 0, answer, ScriptValues{values, isSet, read}, 0);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(isSet[token]);
        QCOMPARE(values[token], std::string("e")); // the environment is above the globals
        r = scripts.runTest(0, 0, answer, ScriptValues{values, isSet, read}, 1);
        QVERIFY2(r.ok, r.error.c_str());
        QCOMPARE(r.tests.size(), std::size_t(2));
        for (const auto& t : r.tests)
            QVERIFY2(t.passed, (t.name + ": " + t.error).c_str());
        QVERIFY(isSet[token]);
        QCOMPARE(values[token], std::string("g2")); // unset above: the globals' own
        r = scripts.runTest(0, 0, answer, ScriptValues{values, isSet, read}, 2);
        QVERIFY2(r.ok, r.error.c_str());
        QVERIFY(!isSet[token]);
    }

    // Issue 28: a step's scripts. Each literal pm.test name is a check after
    // the step's own; a name a script sets is this user's variable (a later
    // step may send it); Postman's dynamic variables are drawn by the engine.
    // defaultHeaders: on every request that has none of the name (HTTP/1.1 and HTTP/2 forms); Host and framing
    // headers refused.
    void defaultHeadersUnlessTheRequestHasOne()
    {
        v1::Scenario s;
        std::string err;
        QVERIFY2(
            parseScenarioJson(
                "{\"defaultHeaders\": [{\"name\": \"Accept\", \"value\": \"*/*\"}, {\"name\": \"X-Id\", \"value\": "
                "\"${$guid}\"}], \"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/a\"}}, {\"request\": {\"url\": "
                "\"http://127.0.0.1/b\", \"headers\": [{\"name\": \"accept\", \"value\": \"text/plain\"}]}}],"
                " \"load\": {\"closed\": {\"users\": 1}}}",
                s, err),
            err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        const std::string a = plan->steps[0].head.leadingLiteral(), b = plan->steps[1].head.leadingLiteral();
        QVERIFY2(a.find("\r\nAccept: */*\r\nX-Id: ") != std::string::npos, a.c_str());
        QVERIFY(!plan->steps[0].head.isConstant()); // a fresh uuid per request
        QVERIFY2(b.find("Accept: */*") == std::string::npos && b.find("accept: text/plain") != std::string::npos,
                 b.c_str());
        QVERIFY(std::any_of(plan->steps[0].h2Headers.begin(), plan->steps[0].h2Headers.end(),
                            [](const auto& h) { return h.first == "accept"; }));
        for (const char* bad : {"Host", "Content-Length", "bad name"}) {
            s.mutable_default_headers(0)->set_name(bad);
            errors.clear();
            QVERIFY(!compileScenario(s, {}, errors));
            QCOMPARE(errors.front().field, std::string("defaultHeaders[0].name"));
        }
    }

    void scriptsAndDynamicVariables()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"steps\": [{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1/login\"}, \"checks\": "
            "[{\"status\": [200]}], \"testScript\": \"pm.test('token', () => {});\\npm.test(`n ${1}`, () => "
            "{});\\npm.environment.set('token', 'x'); pm.globals.set('a.b', 1); // pm.test('not "
            "code')\"},{\"request\": {\"url\": \"http://127.0.0.1/x?t=${token}&id=${$guid}&at=${$isoTimestamp}\"}, "
            "\"preRequestScript\": \"pm.request.headers.add({key: 'A', value: 'b'});\"}], \"load\": {\"closed\": "
            "{\"users\": 1}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        const PlannedStep& login = plan->steps[0];
        QVERIFY(login.scripts);
        QCOMPARE(login.scripts->firstCheck, 1u);
        // status 200, "token"; the test named by an expression is counted by its name as it runs (NamedTests)
        QCOMPARE(login.checks.size(), std::size_t(2));
        QCOMPARE(login.checks[1].name, std::string("token"));
        QVERIFY(login.scripts->otherTests);
        QVERIFY(login.checks[1].subject == Check::Subject::Script);
        QCOMPARE(login.needs, unsigned(kNeedsBody | kNeedsHeaders));
        QCOMPARE(login.scripts->sets.size(), std::size_t(1)); // token ("a.b" is the script's own)
        QCOMPARE(plan->variables[login.scripts->sets[0]].name, std::string("token"));
        const PlannedStep& x = plan->steps[1];
        QVERIFY(x.scripts && !x.scripts->pre.empty() && x.scripts->test.empty());
        QCOMPARE(x.extracted.size(), std::size_t(1)); // ${token}: rendered when sent
        QCOMPARE(x.scripts->url, std::string("http://127.0.0.1/x?t=${token}&id=${$guid}&at=${$isoTimestamp}"));
        const auto named = [&](const char* n) {
            return std::any_of(plan->variables.begin(), plan->variables.end(),
                               [&](const PlannedVariable& v) { return v.name == n && v.used && v.source; });
        };
        QVERIFY(named("$guid") && named("$isoTimestamp"));
        QVERIFY(flowWarnings(*plan).empty()); // the login's script sets the token before it is used
    }

    // An extraction named like a variable (the environment's token that a
    // Send wrote there, a constant, a generator) shadows it: the variable is
    // the default until a value is extracted; no warning, no refusal.
    void anExtractionShadowsAVariable()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"variables\": [{\"name\": \"token\", \"constant\": {\"value\": \"from-env\"}},"
            "{\"name\": \"n\", \"increment\": {\"min\": 1, \"max\": 9}}],"
            "\"steps\": ["
            "{\"name\": \"first\", \"request\": {\"url\": \"http://127.0.0.1/a\", \"headers\": [{\"name\": \"A\", "
            "\"value\": \"${token}\"}]}, \"extract\": [{\"name\": \"token\", \"header\": \"T\"}, "
            "{\"name\": \"n\", \"header\": \"N\"}]},"
            "{\"request\": {\"url\": \"http://127.0.0.1/b/${n}\", \"headers\": [{\"name\": \"A\", "
            "\"value\": \"${token}\"}]}}], \"load\": {\"closed\": {\"users\": 1}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        QVERIFY(flowWarnings(*plan).empty()); // the first step sends the default
        QCOMPARE(plan->steps[0].extracted.size(), std::size_t(1));
        const PlannedVariable& token = plan->variables[plan->steps[0].extracted[0]];
        QVERIFY(token.extracted);
        QVERIFY(token.fallback >= 0);
        QCOMPARE(plan->variables[std::size_t(token.fallback)].name, std::string("token"));
        QVERIFY(!plan->variables[std::size_t(token.fallback)].extracted);
        // ${n} in the second step is the extracted one, its increment the default read when the iteration starts
        QCOMPARE(plan->steps[1].extracted.size(), std::size_t(2));
        const bool savesTheIncrement =
            std::any_of(plan->savedRefs.begin(), plan->savedRefs.end(), [&](const VarRef& r) {
                return plan->variables[r.variable].name == "n" && !plan->variables[r.variable].extracted;
            });
        QVERIFY(savesTheIncrement);
    }

    // A form and an Authorization as written: expanded and encoded when the
    // request is rendered, whichever values the iteration drew. Constant
    // ones are folded into the fixed bytes; the user's own headers win.
    void formsAndAuthAreRenderedAtSendTime()
    {
        struct Values : ValueLookup
        {
            std::string_view value(VarRef) const override { return "J\u00f6 & co=1"; }
        } values;
        const auto compile = [](const std::string& request, std::string& error) {
            v1::Scenario s;
            std::string err;
            const std::string json = "{\"variables\": [{\"name\": \"d\", \"csv\": {\"data\": \"who\\nx\\n\"}},"
                                     "{\"name\": \"pw\", \"constant\": {\"value\": \"s3cret\"}}],"
                                     "\"steps\": [{\"request\": " +
                                     request + "}], \"load\": {\"closed\": {\"users\": 1}}}";
            if (!parseScenarioJson(json, s, err))
                qFatal("%s", err.c_str());
            std::vector<PlanError> errors;
            auto plan = compileScenario(s, {}, errors);
            error = errors.empty() ? "" : errors.front().text();
            return plan;
        };
        const auto wire = [&](const std::string& request) {
            std::string error;
            auto plan = compile(request, error);
            if (!plan)
                return "error: " + error;
            RequestRenderer r(*plan, false);
            if (!r.templated(0))
                return r.fixed(0).wire;
            RenderedRequest out;
            r.render(0, values, out);
            return out.wire;
        };
        const std::string url = "\"method\": \"POST\", \"url\": \"http://127.0.0.1/f\"";
        // urlencoded: each expanded name and value percent-encoded, the separators as they are
        std::string w = wire("{" + url +
                             ", \"form\": {\"fields\": [{\"name\": \"who\", \"value\": \"${d.who}\"}, "
                             "{\"name\": \"a b\", \"value\": \"${pw}!\"}]}}");
        QVERIFY2(w.find("Content-Type: application/x-www-form-urlencoded\r\n") != std::string::npos, w.c_str());
        const std::string form = "\r\n\r\nwho=J%C3%B6%20%26%20co%3D1&a%20b=s3cret%21";
        QVERIFY2(w.size() > form.size() && w.substr(w.size() - form.size()) == form, w.c_str());
        // multipart: the values as they are
        w = wire("{" + url +
                 ", \"form\": {\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"who\", "
                 "\"value\": \"${d.who}\"}]}}");
        QVERIFY2(w.find("Content-Type: multipart/form-data; boundary=stampede-form-boundary-7d1f3a\r\n") !=
                     std::string::npos,
                 w.c_str());
        QVERIFY2(w.find("\r\n\r\n--stampede-form-boundary-7d1f3a\r\nContent-Disposition: form-data; "
                        "name=\"who\"\r\n\r\nJ\u00f6 & co=1\r\n--stampede-form-boundary-7d1f3a--\r\n") !=
                     std::string::npos,
                 w.c_str());
        // Basic with per-iteration values: encoded when rendered; with constants: folded
        w = wire("{" + url + ", \"auth\": {\"basic\": {\"user\": \"${d.who}\", \"password\": \"${pw}\"}}}");
        std::string expect = "Authorization: Basic ";
        appendBase64(expect, "J\u00f6 & co=1:s3cret");
        QVERIFY2(w.find(expect + "\r\n") != std::string::npos, w.c_str());
        w = wire("{" + url + ", \"auth\": {\"basic\": {\"user\": \"admin\", \"password\": \"${pw}\"}}}");
        QVERIFY2(w.find("Authorization: Basic YWRtaW46czNjcmV0\r\n") != std::string::npos, w.c_str()); // admin:s3cret
        w = wire("{" + url + ", \"auth\": {\"bearer\": \"t-${d.who}\"}}");
        QVERIFY2(w.find("Authorization: Bearer t-J\u00f6 & co=1\r\n") != std::string::npos, w.c_str());
        // the user's own Authorization and Content-Type win
        w = wire("{" + url +
                 ", \"headers\": [{\"name\": \"authorization\", \"value\": \"Mine\"}, {\"name\": "
                 "\"Content-Type\", \"value\": \"text/x\"}], \"auth\": {\"bearer\": \"t\"}, \"form\": "
                 "{\"fields\": [{\"name\": \"a\", \"value\": \"b\"}]}}");
        QVERIFY2(w.find("Bearer") == std::string::npos && w.find("urlencoded") == std::string::npos, w.c_str());
        QVERIFY2(w.find("authorization: Mine\r\n") != std::string::npos, w.c_str());
        { // but Digest: its hook answers the challenge, and its answer replaces the header written (Postman's)
            std::string why;
            auto digest = compile("{" + url +
                                      ", \"headers\": [{\"name\": \"Authorization\", \"value\": \"Digest stale\"}], "
                                      "\"auth\": {\"digest\": {\"user\": \"u\", \"password\": \"p\"}}}",
                                  why);
            QVERIFY2(digest, why.c_str());
            QVERIFY(digest->steps[0].digest);
            const auto& hooks = digest->steps[0].hooks;
            QVERIFY(std::find(hooks.begin(), hooks.end(), FlowHookKind::Digest) != hooks.end());
        }
        // a form without a field is no body, as Postman's empty formdata (nothing after the head, no type)
        w = wire("{" + url + ", \"form\": {\"encoding\": \"FORM_MULTIPART\", \"fields\": []}}");
        QVERIFY2(w.size() > 4 && w.substr(w.size() - 4) == "\r\n\r\n" && w.find("Content-Type") == std::string::npos,
                 w.c_str());
        // a body and a form: bad input naming the field
        w = wire("{" + url + ", \"body\": \"x\", \"form\": {\"fields\": [{\"name\": \"a\", \"value\": \"b\"}]}}");
        QCOMPARE(w, std::string("error: steps[0].request.form: a request has a body or a form, not both"));
        // a line break in a multipart name or a Bearer token is refused as in any header
        w = wire("{" + url + ", \"auth\": {\"bearer\": \"a\\r\\nX: 1\"}}");
        QVERIFY2(w.rfind("error: steps[0].request.auth.bearer: the value holds a line break (CR)", 0) == 0, w.c_str());
        // HTTP/2: the Basic value goes into its own header slot
        std::string error;
        auto plan =
            compile("{" + url + ", \"auth\": {\"basic\": {\"user\": \"${d.who}\", \"password\": \"p\"}}}", error);
        QVERIFY2(plan, error.c_str());
        RequestRenderer h2(*plan, true);
        RenderedRequest out;
        h2.render(0, values, out);
        expect = "Basic ";
        appendBase64(expect, "J\u00f6 & co=1:p");
        QCOMPARE(plan->steps[0].h2Headers[plan->steps[0].authH2].first, std::string("authorization"));
        QCOMPARE(out.values[plan->steps[0].authH2], expect);
    }

    // A multipart form's file fields (Postman's type file): each file a part of its own with its bytes as they
    // are (nothing expanded), its base name and a type from its extension, in its field's place; several for one
    // field in their order; one with neither path nor bytes an empty part without a type, as newman sends a file
    // it could not read. Read relative to the scenario; a bundle's inline bytes win. A file holding the boundary
    // moves the form to another. Bad shapes name the field.
    void multipartFilesAreSentAsTheirBytes()
    {
        QTemporaryDir dir;
        const std::string base = dir.path().toStdString();
        std::ofstream(base + "/data.csv", std::ios::binary) << "a,b\n1,${not_expanded}\n";
        const char raw[] = "\x00\x01\xff\r\n--stampede-form-boundary-7d1f3a\r\nbin";
        const std::string blob(raw, sizeof raw - 1); // its NUL and all, without the literal's own
        std::ofstream(base + "/blob.bin", std::ios::binary) << blob;
        const auto wire = [&](const std::string& form, std::string& error) {
            v1::Scenario s;
            std::string err;
            const std::string json =
                "{\"variables\": [{\"name\": \"v\", \"constant\": {\"value\": \"V\"}}], \"steps\": [{\"request\": "
                "{\"method\": \"POST\", \"url\": \"http://127.0.0.1/up\", \"form\": " +
                form + "}}], \"load\": {\"closed\": {\"users\": 1}}}";
            if (!parseScenarioJson(json, s, err)) {
                error = "json: " + err;
                return std::string();
            }
            std::vector<PlanError> errors;
            PlanOptions o;
            o.baseDir = base;
            auto plan = compileScenario(s, o, errors);
            error = errors.empty() ? "" : errors.front().text();
            if (!plan)
                return std::string();
            RequestRenderer r(*plan, false);
            return r.fixed(0).wire;
        };
        std::string error;
        const std::string w = wire(
            "{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"t1\", \"value\": \"${v}\"}, {\"name\": "
            "\"f\"}, "
            "{\"name\": \"t2\", \"value\": \"v2\"}, {\"name\": \"g\"}, {\"name\": \"m\"}], \"files\": [{\"field\": 1, "
            "\"file\": \"data.csv\"}, {\"field\": 3, \"file\": \"blob.bin\"}, {\"field\": 3, \"file\": \"" +
                base + "/data.csv\", \"filename\": \"a\\\"b.csv\", \"contentType\": \"text/x-mine\"}, {\"field\": 4}]}",
            error);
        QVERIFY2(error.empty(), error.c_str());
        // blob.bin holds the engine's boundary: this form takes the next one
        QVERIFY2(w.find("Content-Type: multipart/form-data; boundary=stampede-form-boundary-7d1f3a-1\r\n") !=
                     std::string::npos,
                 w.c_str());
        const std::string b = "--stampede-form-boundary-7d1f3a-1";
        const std::string body =
            b + "\r\nContent-Disposition: form-data; name=\"t1\"\r\n\r\nV\r\n" + b +
            "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"data.csv\"\r\nContent-Type: "
            "text/csv\r\n\r\na,b\n1,${not_expanded}\n\r\n" +
            b + "\r\nContent-Disposition: form-data; name=\"t2\"\r\n\r\nv2\r\n" + b +
            "\r\nContent-Disposition: form-data; name=\"g\"; filename=\"blob.bin\"\r\nContent-Type: "
            "application/octet-stream\r\n\r\n" +
            blob + "\r\n" + b +
            "\r\nContent-Disposition: form-data; name=\"g\"; filename=\"a%22b.csv\"\r\nContent-Type: "
            "text/x-mine\r\n\r\na,b\n1,${not_expanded}\n\r\n" +
            b + "\r\nContent-Disposition: form-data; name=\"m\"; filename=\"\"\r\n\r\n\r\n" + b + "--\r\n";
        QVERIFY2(w.size() > body.size() && w.substr(w.size() - body.size()) == body, w.c_str());
        QVERIFY2(w.find("Content-Length: " + std::to_string(body.size()) + "\r\n") != std::string::npos, w.c_str());
        // inline bytes (a bundle's) win over the path, which is then not opened
        QVERIFY2(wire("{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"f\"}], \"files\": [{\"field\": 0, "
                      "\"file\": \"gone.csv\", \"data\": \"aW5saW5l\", \"filename\": \"gone.csv\"}]}",
                      error)
                         .find("filename=\"gone.csv\"\r\nContent-Type: text/csv\r\n\r\ninline\r\n") !=
                     std::string::npos,
                 error.c_str());
        // the faults, each naming its field
        const std::pair<const char*, const char*> bad[] = {
            {"{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"f\"}], \"files\": [{\"field\": 0, \"file\": "
             "\"missing.csv\"}]}",
             "steps[0].request.form.files[0].file: cannot read \"missing.csv\""},
            {"{\"fields\": [{\"name\": \"f\"}], \"files\": [{\"field\": 0, \"file\": \"data.csv\"}]}",
             "steps[0].request.form.files[0]: a file is sent in a multipart form only"},
            {"{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"f\"}], \"files\": [{\"field\": 1, \"file\": "
             "\"data.csv\"}]}",
             "steps[0].request.form.files[0].field: no form field 1 (the form has 1)"},
            {"{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"f\"}], \"files\": [{\"field\": 0, \"file\": "
             "\"data.csv\", \"contentType\": \"text/plain\\r\\nX-Evil: 1\"}]}",
             "steps[0].request.form.files[0].content_type: a Content-Type cannot hold a line break"},
            {"{\"encoding\": \"FORM_MULTIPART\", \"fields\": [{\"name\": \"f\\r\\nX: 1\"}], \"files\": [{\"field\": 0, "
             "\"file\": \"data.csv\"}]}",
             "steps[0].request.form.fields[0].name: the value holds a line break"},
        };
        for (const auto& [form, message] : bad) {
            QVERIFY2(wire(form, error).empty(), form);
            QVERIFY2(error.rfind(message, 0) == 0, (error + "\n  expected: " + message).c_str());
        }
        // a body that is a file's bytes (Postman's file body): its type by its extension unless a header names one
        const auto bodyWire = [&](const std::string& request, std::string& err) {
            return wire("{\"fields\": []}, " + request, err);
        };
        std::string w2 = bodyWire("\"bodyFile\": {\"file\": \"blob.bin\"}", error);
        QVERIFY2(error.empty(), error.c_str());
        QVERIFY2(w2.find("Content-Type: application/octet-stream\r\nContent-Length: " + std::to_string(blob.size()) +
                         "\r\n") != std::string::npos,
                 w2.c_str());
        QVERIFY2(w2.size() > blob.size() && w2.substr(w2.size() - blob.size()) == blob, w2.c_str());
        w2 = bodyWire("\"bodyFile\": {\"file\": \"data.csv\"}, \"headers\": [{\"name\": \"content-type\", \"value\": "
                      "\"text/plain\"}]",
                      error);
        QVERIFY2(w2.find("content-type: text/plain\r\n") != std::string::npos &&
                     w2.find("text/csv") == std::string::npos &&
                     w2.find("\r\n\r\na,b\n1,${not_expanded}\n") != std::string::npos,
                 w2.c_str());
        QVERIFY(bodyWire("\"bodyFile\": {\"file\": \"data.csv\"}, \"body\": \"x\"", error).empty());
        QCOMPARE(error, std::string("steps[0].request.body_file: a request has one of a body, a form and a file body"));
        QVERIFY(bodyWire("\"bodyFile\": {\"file\": \"nope.bin\"}", error).empty());
        QVERIFY2(error.rfind("steps[0].request.body_file.file: cannot read \"nope.bin\"", 0) == 0, error.c_str());
        QCOMPARE(contentTypeOfFilename("PHOTO.JPG"), std::string("image/jpeg"));
        QCOMPARE(contentTypeOfFilename("archive.tar.gz"), std::string("application/gzip"));
        QCOMPARE(contentTypeOfFilename("noextension"), std::string("application/octet-stream"));
    }

    // A head over 1 MiB (a 10 MB value in a header, per iteration or constant) is not sent: a `render` error
    // naming its size, nothing of it kept. 1 MiB itself goes.
    void aHeadOverOneMebibyteIsNotSent()
    {
        struct Values : ValueLookup
        {
            std::string text;
            std::string_view value(VarRef) const override { return text; }
        } values;
        const auto plan = [](const std::string& constant, const char* header) {
            v1::Scenario s;
            std::string err;
            const std::string json = "{\"variables\": [{\"name\": \"d\", \"csv\": {\"data\": \"v\\nx\\n\"}},"
                                     "{\"name\": \"big\", \"constant\": {\"value\": \"" +
                                     constant +
                                     "\"}}],"
                                     "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"headers\": "
                                     "[{\"name\": \"X-Big\", \"value\": \"" +
                                     header + "\"}]}}], \"load\": {\"closed\": {\"users\": 1}}}";
            if (!parseScenarioJson(json, s, err))
                qFatal("%s", err.c_str());
            std::vector<PlanError> errors;
            return compileScenario(s, {}, errors);
        };
        const std::size_t limit = RequestRenderer::kMaxHead;
        for (const bool http2 : {false, true}) {
            // per iteration: over the limit fails, a value that leaves the head under it goes
            const auto templated = plan("c", "${d.v}");
            QVERIFY(templated);
            RequestRenderer r(*templated, http2);
            QVERIFY(r.templated(0));
            RenderedRequest out;
            values.text.assign(10'000'000, 'v');
            r.render(0, values, out);
            QVERIFY2(out.failure.find("over the 1 MiB a head may have: not sent") != std::string::npos,
                     out.failure.c_str());
            QCOMPARE(out.failureClass, ErrorClass::Render);
            QVERIFY(out.wire.capacity() < limit);
            for (const auto& v : out.values)
                QVERIFY(v.capacity() < limit);
            values.text.assign(limit - 200, 'v');
            r.render(0, values, out);
            QVERIFY2(out.failure.empty(), out.failure.c_str());
            // a constant: every request of the step fails alike
            const auto fixed = plan(std::string(limit + 1, 'c'), "${big}");
            QVERIFY(fixed);
            RequestRenderer f(*fixed, http2);
            QVERIFY(!f.templated(0));
            QVERIFY2(f.fixed(0).failure.find("over the 1 MiB") != std::string::npos, f.fixed(0).failure.c_str());
            QVERIFY(f.fixed(0).wire.empty());
        }
    }

    // A pre-request script's headers are held to the same bound: over 1 MiB, the request is not sent.
    void aScriptsHeadOverOneMebibyteIsNotSent()
    {
        v1::Scenario s;
        std::string err;
        QVERIFY(parseScenarioJson(
            "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}}], \"load\": {\"closed\": {\"users\": 1}}}", s,
            err));
        std::vector<PlanError> errors;
        const auto plan = compileScenario(s, {}, errors);
        QVERIFY(plan);
        for (const bool http2 : {false, true}) {
            RequestRenderer renderer(*plan, http2);
            for (const std::size_t size : {std::size_t(1000), RequestRenderer::kMaxHead + 1}) {
                RenderedRequest r = renderer.fixed(0);
                ScriptRun c;
                c.headerNames = {"x-big"};
                c.headers = {{"X-Big", std::string(size, 'y')}};
                std::string why;
                const bool sent = applyScriptChanges(c, plan->steps[0], http2, r, why);
                QVERIFY2(sent == (size == 1000), why.c_str());
                if (!sent)
                    QVERIFY2(why.find("over the 1 MiB a head may have") != std::string::npos, why.c_str());
            }
        }
    }

    void base64IsRfc4648()
    {
        for (const auto& [in, out] : std::vector<std::pair<std::string, std::string>>{{"", ""},
                                                                                      {"f", "Zg=="},
                                                                                      {"fo", "Zm8="},
                                                                                      {"foo", "Zm9v"},
                                                                                      {"foob", "Zm9vYg=="},
                                                                                      {"fooba", "Zm9vYmE="},
                                                                                      {"foobar", "Zm9vYmFy"},
                                                                                      {"\xff\xfe", "//4="}}) {
            std::string b;
            appendBase64(b, in);
            QCOMPARE(b, out);
        }
    }

    void thinkTimesAndPacing()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"steps\": ["
            "{\"request\": {\"url\": \"http://127.0.0.1/a\"}, \"thinkTime\": {\"fixed\": \"200ms\"}},"
            "{\"request\": {\"url\": \"http://127.0.0.1/b\"}, \"thinkTime\": {\"uniform\": [\"100ms\", \"0.3s\"]}},"
            "{\"request\": {\"url\": \"http://127.0.0.1/c\"}, \"thinkTime\": {\"normal\": {\"mean\": \"200ms\", "
            "\"sd\": \"50ms\"}}},"
            "{\"request\": {\"url\": \"http://127.0.0.1/d\"}, \"thinkTime\": {\"exponential\": {\"mean\": \"1.5m\"}}},"
            "{\"request\": {\"url\": \"http://127.0.0.1/e\"}}],"
            "\"load\": {\"closed\": {\"users\": 2, \"pacing\": \"2s\"}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        auto plan = compileScenario(s, {}, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        const Nanos ms = kNanosPerMilli;
        using K = ThinkTime::Kind;
        QCOMPARE(int(plan->steps[0].think.kind), int(K::Fixed));
        QCOMPARE(plan->steps[0].think.a, 200 * ms);
        QCOMPARE(int(plan->steps[1].think.kind), int(K::Uniform));
        QCOMPARE(plan->steps[1].think.a, 100 * ms);
        QCOMPARE(plan->steps[1].think.b, 300 * ms);
        QCOMPARE(int(plan->steps[2].think.kind), int(K::Normal));
        QCOMPARE(plan->steps[2].think.b, 50 * ms);
        QCOMPARE(int(plan->steps[3].think.kind), int(K::Exponential));
        QCOMPARE(plan->steps[3].think.a, 90 * kNanosPerSecond);
        QVERIFY(plan->steps[4].think.none());
        const auto* closed = dynamic_cast<const ClosedExecutor*>(plan->load.get());
        QVERIFY(closed);
        QCOMPARE(closed->load().pacing, 2 * kNanosPerSecond);
    }

    void compilesAFixedRequestOnce()
    {
        v1::Scenario s;
        std::string err;
        const std::string json =
            "{\"name\": \"x\", \"variables\": [{\"name\": \"base\", \"constant\": {\"value\": "
            "\"http://127.0.0.1:9\"}}],\n"
            "            \"steps\": [{\"request\": {\"method\": \"post\", \"url\": \"${base}?q=1\", \"body\": "
            "\"abc\",\n"
            "                                   \"headers\": [{\"name\": \"Content-Length\", \"value\": \"99\"}]}}],\n"
            "            \"load\": {\"open\": {\"rate\": 10}}, \"stressTag\": {\"header\": \"X-Test-Run\"}}";
        QVERIFY(parseScenarioJson(json, s, err));
        std::vector<PlanError> errors;
        PlanOptions o;
        o.runId = "st-test";
        auto plan = compileScenario(s, o, errors);
        QVERIFY(plan);
        QCOMPARE(plan->steps.size(), std::size_t(1));
        const auto& st = plan->steps[0];
        QVERIFY(st.fixed);
        QCOMPARE(QString::fromStdString(st.fixedBytes),
                 QStringLiteral("POST /?q=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\nUser-Agent: stampede/" STAMPEDE_VERSION
                                "\r\nX-Test-Run: st-test\r\nContent-Length: 3\r\n\r\nabc"));
        QCOMPARE(plan->duration, 10 * kNanosPerSecond);
        QCOMPARE(plan->connections, 50u);
    }

    // What is written is what is sent, encoded as a browser sends it: the
    // fixed request's line, and a templated one's literals.
    void targetsAreEncodedOnce()
    {
        v1::Scenario s;
        std::string err;
        const std::string json = "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/a b/\u00fc?q=x y#frag\"}},"
                                 " {\"request\": {\"url\": \"http://127.0.0.1:9/a b/${n}?c=\\\"d\\\"\"}}],"
                                 " \"variables\": [{\"name\": \"n\", \"increment\": {}}],"
                                 " \"load\": {\"open\": {\"rate\": 10}}}";
        QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
        std::vector<PlanError> errors;
        PlanOptions o;
        o.runId = "st-test";
        auto plan = compileScenario(s, o, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        QVERIFY(plan->steps[0].fixedBytes.rfind("GET /a%20b/%C3%BC?q=x%20y HTTP/1.1\r\n", 0) == 0);
        QVERIFY(!plan->steps[1].fixed);
        QCOMPARE(QString::fromStdString(plan->steps[1].head.leadingLiteral()), QStringLiteral("GET /a%20b/"));
        QCOMPARE(plan->steps[1].h2Headers[3].second.leadingLiteral(), std::string("/a%20b/"));
    }

    void csvFileIsReadRelativeToTheScenario()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("u.csv")).toStdString()) << "id\n1\n2\n";
        const std::string json =
            "{\"variables\": [{\"name\": \"u\", \"csv\": {\"file\": \"u.csv\"}}], \"steps\": [{\"request\": {\"url\": "
            "\"http://127.0.0.1/${u.id}\"}}], \"load\": {\"closed\": {\"users\": 1}}}";
        const auto errors = errorsOf(json, dir.path().toStdString());
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
    }

    // Durations in a file are written as on the command line ("200ms", "1.5m")
    // or as proto3 JSON's seconds; only fields that are durations are read so.
    void durationsTakeUnits()
    {
        v1::Scenario s;
        std::string error;
        QVERIFY2(parseScenarioJson("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\", \"body\": \"200ms\", "
                                   "\"timeout\": \"1500ms\", \"headers\": [{\"name\": \"X\", \"value\": \"5s\"}]}}], "
                                   "\"load\": {\"closed\": {\"users\": 2, \"thinkTime\": \"200ms\"}, \"stages\": "
                                   "[{\"kind\": \"STAGE_HOLD\", \"duration\": \"1.5m\"}]}, \"duration\": \"2.5s\"}",
                                   s, error),
                 error.c_str());
        QCOMPARE(s.load().closed().think_time().nanos(), 200000000);
        QCOMPARE(s.steps(0).request().timeout().seconds(), 1);
        QCOMPARE(s.steps(0).request().timeout().nanos(), 500000000);
        QCOMPARE(s.load().stages(0).duration().seconds(), 90);
        QCOMPARE(s.duration().seconds(), 2);
        QCOMPARE(s.steps(0).request().body(), std::string("200ms")); // a string, not a duration
        QCOMPARE(s.steps(0).request().headers(0).value(), std::string("5s"));
        // a duration that means nothing is still refused, by the field
        QVERIFY(!parseScenarioJson("{\"duration\": \"soon\"}", s, error));
        QVERIFY(!error.empty());
    }

    // Issue 53: ${$stressTag} is the run's stress tag in any template (a key prefix, a shadow table's name).
    void stressTagInTemplates()
    {
        v1::Scenario s;
        std::string err;
        QVERIFY2(parseScenarioJson("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/o?key=${$stressTag}-1\", "
                                   "\"headers\": [{\"name\": \"X-Shadow\", \"value\": \"t_${$stressTag}\"}]}}], "
                                   "\"load\": {\"closed\": {\"users\": 1}}}",
                                   s, err),
                 err.c_str());
        std::vector<PlanError> errors;
        PlanOptions o;
        o.runId = "st-0123456789abcdef";
        auto plan = compileScenario(s, o, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        const std::string& bytes = plan->steps[0].fixedBytes;
        QVERIFY2(bytes.find("GET /o?key=st-0123456789abcdef-1 HTTP/1.1\r\n") != std::string::npos, bytes.c_str());
        QVERIFY2(bytes.find("\r\nX-Shadow: t_st-0123456789abcdef\r\n") != std::string::npos, bytes.c_str());
    }

    // Issue 52: a replay's server may be an environment's or a scenario's constant (${mock_url}), one for the
    // run; a name that is not a constant is refused naming it.
    void replayTargetTakesConstants()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("a.log")).toStdString())
            << "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET /p HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        for (const std::string target : {"${mock_url}", "http://${host}:9", "${nothing}", "${gen}"}) {
            v1::Scenario s;
            std::string err;
            QVERIFY2(parseScenarioJson("{\"steps\": [{\"replay\": {\"file\": \"a.log\", \"target\": \"" + target +
                                           "\"}}], \"variables\": [{\"name\": \"mock_url\", \"constant\": {\"value\": "
                                           "\"http://127.0.0.1:9\"}}, {\"name\": \"host\", \"constant\": {\"value\": "
                                           "\"127.0.0.1\"}}, {\"name\": \"gen\", \"increment\": {}}]}",
                                       s, err),
                     err.c_str());
            std::vector<PlanError> errors;
            PlanOptions o;
            o.baseDir = dir.path().toStdString();
            auto plan = compileScenario(s, o, errors);
            if (target == "${nothing}" || target == "${gen}") {
                QVERIFY(!plan);
                QVERIFY2(!errors.empty() && errors.front().field == "steps[0].replay.target" &&
                             errors.front().message.find("is not a constant") != std::string::npos,
                         errors.empty() ? "" : errors.front().text().c_str());
                continue;
            }
            QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
            QCOMPARE(plan->steps[0].url, std::string("http://127.0.0.1:9"));
        }
    }

    // Issue 52: the shorthand a person writes: one status for a list of one, a time for a fixed think time; the
    // long forms mean the same, and what is neither is still refused.
    void shorthandsAreRead()
    {
        v1::Scenario s, longForm;
        std::string error;
        QVERIFY2(parseScenarioJson("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, \"thinkTime\": "
                                   "\"300ms\", \"checks\": [{\"name\": \"created\", \"status\": 201}, {\"name\": "
                                   "\"ok\", \"status\": \"OK\"}]}]}",
                                   s, error),
                 error.c_str());
        QVERIFY2(parseScenarioJson("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1/\"}, \"thinkTime\": "
                                   "{\"fixed\": \"0.3s\"}, \"checks\": [{\"name\": \"created\", \"status\": [201]}, "
                                   "{\"name\": \"ok\", \"status\": [\"OK\"]}]}]}",
                                   longForm, error),
                 error.c_str());
        QCOMPARE(s.steps(0).think_time().fixed().nanos(), 300000000);
        QCOMPARE(s.steps(0).checks(0).status().values_size(), 1);
        QCOMPARE(s.steps(0).checks(0).status().values(0).number_value(), 201.0);
        QCOMPARE(s.steps(0).checks(1).status().values(0).string_value(), std::string("OK"));
        QCOMPARE(s.SerializeAsString(), longForm.SerializeAsString());
        QVERIFY(!parseScenarioJson("{\"steps\": [{\"thinkTime\": \"soon\"}]}", s, error));
        QVERIFY(!parseScenarioJson("{\"steps\": [{\"checks\": [{\"status\": {\"a\": 1}}]}]}", s, error));
    }

    // Issue 29: a stress tag in `baggage` is a W3C baggage member
    // (stress_test=<run id>), on a written request and on a replayed one,
    // whose own baggage keeps its other members, never a second stress_test.
    void theStressTagInBaggageIsAMember()
    {
        QTemporaryDir dir;
        std::ofstream(dir.filePath(QStringLiteral("a.log")).toStdString())
            << "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET /p HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        for (const bool replay : {false, true}) {
            v1::Scenario s;
            std::string err;
            const std::string json =
                replay ? "{\"steps\": [{\"replay\": {\"file\": \"a.log\", \"target\": \"http://127.0.0.1:9\"}}], "
                         "\"stressTag\": {\"header\": \"Baggage\"}}"
                       : "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], \"load\": {\"open\": "
                         "{\"rate\": 10}}, \"stressTag\": {\"header\": \"Baggage\"}}";
            QVERIFY2(parseScenarioJson(json, s, err), err.c_str());
            std::vector<PlanError> errors;
            PlanOptions o;
            o.runId = "st-test";
            o.baseDir = dir.path().toStdString();
            auto plan = compileScenario(s, o, errors);
            QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
            QCOMPARE(plan->stressValue, std::string("stress_test=st-test"));
            if (!replay) {
                QVERIFY2(plan->steps[0].fixedBytes.find("\r\nBaggage: stress_test=st-test\r\n") != std::string::npos,
                         plan->steps[0].fixedBytes.c_str());
                continue;
            }
            TrafficRecord r;
            r.method = "GET";
            r.target = "/p";
            r.headers = {{"baggage", "user=7, stress_test=st-old;p=1 ,region=cn"}, {"x-a", "b"}};
            for (const bool http2 : {false, true}) {
                RequestRenderer renderer(*plan, http2);
                RenderedRequest out;
                renderer.renderRecord(0, r, out);
                QVERIFY2(out.failure.empty(), out.failure.c_str());
                if (!http2) { // one baggage: the recorded members and this run's tag
                    QVERIFY2(out.wire.find("\r\nbaggage: user=7,region=cn,stress_test=st-test\r\n") !=
                                 std::string::npos,
                             out.wire.c_str());
                    QVERIFY2(out.wire.find("\r\nBaggage:") == std::string::npos, out.wire.c_str());
                    QVERIFY2(out.wire.find("st-old") == std::string::npos, out.wire.c_str());
                    continue;
                }
                std::vector<std::string> baggage;
                for (std::size_t i = 0; i + 1 < out.values.size(); i += 2)
                    if (out.values[i] == "baggage")
                        baggage.push_back(out.values[i + 1]);
                QCOMPARE(baggage, (std::vector<std::string>{"user=7,region=cn,stress_test=st-test"}));
            }
            // a recorded baggage of nothing but a stress tag: only this run's goes
            r.headers = {{"baggage", "stress_test=st-old"}};
            RequestRenderer renderer(*plan, false);
            RenderedRequest out;
            renderer.renderRecord(0, r, out);
            QCOMPARE(std::count(out.wire.begin(), out.wire.end(), '\n'), std::ptrdiff_t(4)); // line, Host, tag, end
            QVERIFY2(out.wire.find("\r\nbaggage: stress_test=st-test\r\n") != std::string::npos, out.wire.c_str());
        }
    }

    // A replay step (replaystep.h): its requests read from a log, one step per
    // server, the duration the traffic's, the plan per second.
    void replayStepCompiles()
    {
        QTemporaryDir dir;
        std::ofstream log(dir.filePath(QStringLiteral("a.log")).toStdString());
        for (int i = 0; i < 30; ++i) // 10 per second for 3 seconds, alternately for two hosts
            log << "10.0.0." << i % 3 << " - - [01/Dec/2026:10:00:0" << i / 10 << " +0000] \"GET /p?i=" << i
                << " HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        log.close();
        v1::Scenario s;
        std::string err;
        QVERIFY(parseScenarioJson("{\"steps\": [{\"name\": \"rec\", \"replay\": {\"file\": \"a.log\", \"speed\": 2, "
                                  "\"amplify\": 3, \"target\": \"http://127.0.0.1:9\"}}], \"threads\": 2}",
                                  s, err));
        std::vector<PlanError> errors;
        PlanOptions o;
        o.baseDir = dir.path().toStdString();
        auto plan = compileScenario(s, o, errors);
        QVERIFY2(plan, errors.empty() ? "" : errors.front().text().c_str());
        QVERIFY(plan->load->model() == LoadModel::Replay && plan->replay());
        QCOMPARE(plan->steps.size(), std::size_t(1));
        QCOMPARE(plan->steps[0].name, std::string("rec"));
        QCOMPARE(plan->connections, 50u);
        QCOMPARE(plan->duration, 2 * kNanosPerSecond);          // 3 s of log at x2: the last request at 1.45 s
        QCOMPARE(plannedRequests(*plan, 1), std::uint64_t(60)); // 20 records x 3 copies in the first second
        QCOMPARE(plannedRequests(*plan, 2), std::uint64_t(30));
        QCOMPARE(plannedRequests(*plan, 3), std::uint64_t(0));
        // the requests of one second spread over it (a log counts whole seconds)
        QCOMPARE(plan->replay()->records[1].atNanos - plan->replay()->records[0].atNanos, 100 * kNanosPerMilli);
    }

    void replayFaultsNameTheField_data()
    {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("message");
        const auto replay = [](const char* inner) {
            return QStringLiteral(
                       "{\"steps\": [{\"replay\": {\"file\": \"a.log\", \"target\": \"http://127.0.0.1:9\"%1}}]}")
                .arg(QString::fromUtf8(inner));
        };
        QTest::addRow("speed 0") << replay(", \"speed\": 0") << "steps[0].replay.speed: must be above 0";
        QTest::addRow("amplify") << replay(", \"amplify\": 101") << "steps[0].replay.amplify: must be from 1 to 100";
        QTest::addRow("offset key") << replay(", \"offsets\": [{\"query\": \"uid\", \"add\": 5}]")
                                    << "steps[0].replay.offsets: offset \"query:uid+5\": no request of the traffic";
        QTest::addRow("offset without add")
            << replay(", \"offsets\": [{\"query\": \"i\"}]") << "steps[0].replay.offsets[0]: give add";
        QTest::addRow("loop") << replay(", \"loop\": true") << "steps[0].replay.loop: a loop needs";
        QTest::addRow("unknown variable in a format")
            << replay(", \"format\": \"$remote_addr $nope\"") << "steps[0].replay.format: ";
        QTest::addRow("a project's set")
            << QStringLiteral(
                   "{\"steps\": [{\"replay\": {\"traffic\": \"orders\", \"target\": \"http://127.0.0.1:9\"}}]}")
            << "steps[0].replay.traffic: \"orders\" is a project's traffic set";
        QTest::addRow("no server") << QStringLiteral("{\"steps\": [{\"replay\": {\"file\": \"a.log\"}}]}")
                                   << "steps[0].replay.target: give the server the requests go to";
        QTest::addRow("a load") << replay("").replace(QStringLiteral("]}"),
                                                      QStringLiteral("], \"load\": {\"open\": {\"rate\": 5}}}"))
                                << "load: a replay paces itself";
        QTest::addRow("two steps") << replay("").replace(
                                          QStringLiteral("}}]"),
                                          QStringLiteral("}}, {\"request\": {\"url\": \"http://127.0.0.1:9/\"}}]"))
                                   << "steps: a replay step is the scenario's only step";
        QTest::addRow("extract") << replay("").replace(
                                        QStringLiteral("}}]"),
                                        QStringLiteral("}, \"extract\": [{\"name\": \"t\", \"jsonPath\": \"$.t\"}]}]"))
                                 << "steps[0]: a replay step sends the recorded requests as they were";
        QTest::addRow("cookies") << replay("").replace(QStringLiteral("]}"), QStringLiteral("], \"cookies\": true}"))
                                 << "cookies: a replay sends the recorded requests as they were";
        QTest::addRow("damaged data")
            << QStringLiteral("{\"steps\": [{\"replay\": {\"data\": \"AAAA\", \"target\": \"http://127.0.0.1:9\"}}]}")
            << "steps[0].replay.data: not a traffic set";
    }
    void replayFaultsNameTheField()
    {
        QFETCH(QString, json);
        QFETCH(QString, message);
        QTemporaryDir dir;
        std::ofstream log(dir.filePath(QStringLiteral("a.log")).toStdString());
        log << "10.0.0.1 - - [01/Dec/2026:10:00:00 +0000] \"GET /p?i=1 HTTP/1.1\" 200 1 \"-\" \"ua\"\n";
        log.close();
        const auto errors = errorsOf(json.toStdString(), dir.path().toStdString());
        QString all;
        for (const auto& e : errors)
            all += QString::fromStdString(e) + QLatin1Char('\n');
        QVERIFY2(all.contains(message), qPrintable(all));
    }

    void runIdsAreUnique()
    {
        QVERIFY(newRunId() != newRunId());
        QCOMPARE(newRunId().size(), std::size_t(19));
    }
};

QTEST_APPLESS_MAIN(TestScenarioPlan)
#include "tst_scenarioplan.moc"
