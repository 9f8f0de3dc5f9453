// `stampede-cli control ADDR status|pause|resume|scale X|stop`: a client of a
// running controller's control endpoint (`run --control ADDR`).
#include "cli.h"
#include "httpexchange.h"

#include "control/controlserver.h"
#include "core/number.h"
#include "core/textfile.h"
#include "run/runengine.h"

#include <cstdio>

namespace stampede::cli {

namespace {

const char* const kControlUsage =
    "Usage: stampede-cli control ADDR status|pause|resume|scale X|stop [--token-file F] [--ca F]\n"
    "\n"
    "Steers a running test through its controller's control endpoint (stampede-cli run\n"
    "--control ADDR). ADDR is host:port.\n"
    "  status       print the live second, the plan and the agents (JSON)\n"
    "  pause        no new iterations until resume (the level goes to 0)\n"
    "  resume       back to the level before the pause\n"
    "  scale X      the planned level times X (0.5 halves it), or a rate: scale 800/s\n"
    "  stop         end the run now (saved as stopped)\n"
    "  --token-file F  the run's token (required when the run was given one)\n"
    "  --ca F          speak TLS and verify the endpoint against this CA (required off loopback)\n"
    "Each call is an event in the run's record. Exit 0 when the run took it, 1 when it\n"
    "refused it (already paused, ending), 2 bad input, 3 the endpoint could not be reached.\n";

} // namespace

int controlCommand(const std::vector<std::string>& args)
{
    std::vector<std::string> words;
    std::string tokenFile, caFile, error;
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "-h" || a == "--help") {
            std::fputs(kControlUsage, stdout);
            return Passed;
        }
        if (a == "--token-file" || a.rfind("--token-file=", 0) == 0) {
            if (!r.value("--token-file", tokenFile, error))
                break;
        } else if (a == "--ca" || a.rfind("--ca=", 0) == 0) {
            if (!r.value("--ca", caFile, error))
                break;
        } else if (!a.empty() && a[0] == '-' && a.find_first_not_of("-0123456789.") != std::string::npos) {
            error = "unknown option " + a;
            break;
        } else {
            words.push_back(a);
        }
    }
    if (error.empty() && (words.size() < 2 || (words[1] == "scale") != (words.size() == 3) || words.size() > 3))
        error = "expected ADDR status|pause|resume|scale X|stop";
    const std::string what = words.size() > 1 ? words[1] : "";
    std::string method = "POST", path = "/v1/" + what, body;
    if (error.empty()) {
        if (what == "status") {
            method = "GET";
        } else if (what == "scale") {
            std::string x = words[2];
            const bool rate = x.size() > 2 && x.compare(x.size() - 2, 2, "/s") == 0;
            double v = 0;
            bool isRate = false;
            if (rate)
                x.resize(x.size() - 2);
            body = std::string("{\"") + (rate ? "rate" : "factor") + "\": " + x + "}";
            if (!parseScaleBody(body, isRate, v, error)) // the endpoint's own rule, said before the call
                body.clear();
        } else if (what != "pause" && what != "resume" && what != "stop") {
            error = "\"" + what + "\" is not status, pause, resume, scale or stop";
        }
    }
    std::string token, why;
    if (error.empty() && !tokenFile.empty() && !readTokenFile(tokenFile, token, why))
        error = "--token-file: cannot read a token from \"" + tokenFile + "\": " + why;
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli control: %s\n\n%s", error.c_str(), kControlUsage);
        return BadInput;
    }
    std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + words[0] + "\r\nConnection: close\r\n";
    if (!token.empty())
        request += "Authorization: Bearer " + token + "\r\n";
    if (method == "POST")
        request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    request += "\r\n" + body;
    int status = 0;
    std::string answer;
    if (!exchange(words[0], caFile, request, status, answer, error)) {
        std::fprintf(stderr, "stampede-cli control: %s\n", error.c_str());
        return RunFailed;
    }
    std::fputs(answer.c_str(), status / 100 == 2 ? stdout : stderr);
    if (!answer.empty() && answer.back() != '\n')
        std::fputc('\n', status / 100 == 2 ? stdout : stderr);
    if (status == 401 || status == 400)
        return BadInput;
    return status / 100 == 2 ? Passed : ThresholdFailed;
}

} // namespace stampede::cli
