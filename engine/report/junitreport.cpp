#include "junitreport.h"

#include "core/utf8.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

namespace {

std::string seconds(double s)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", s);
    return buf;
}

std::string count(std::uint64_t n)
{
    return std::to_string(n);
}

// Text XML 1.0 can hold: invalid UTF-8 and the control characters it cannot hold written as \xHH.
std::string xmlSafe(const std::string& raw)
{
    std::string out;
    for (char c : utf8Escaped(raw)) {
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') {
            char hex[8];
            std::snprintf(hex, sizeof hex, "\\x%02X", static_cast<unsigned>(static_cast<unsigned char>(c)));
            out += hex;
        } else {
            out += c;
        }
    }
    return out;
}

// Text inside <![CDATA[ ]]>: markup as it is; a "]]>" in it closes one section and opens the next.
std::string cdata(const std::string& text)
{
    const std::string plain = xmlSafe(text);
    std::string out = "<![CDATA[";
    for (std::size_t at = 0;;) {
        const std::size_t end = plain.find("]]>", at);
        if (end == std::string::npos) {
            out += plain.substr(at);
            break;
        }
        out += plain.substr(at, end - at) + "]]]]><![CDATA[>";
        at = end + 3;
    }
    return out + "]]>";
}

// newman's errors of a request (not a test's failure, nor an HTTP or gRPC status): not sent or not answered,
// a script that threw.
bool requestError(ErrorClass c)
{
    return c != ErrorClass::Http4xx && c != ErrorClass::Http5xx && c != ErrorClass::Check && c != ErrorClass::Grpc;
}

// The run's own cases: a run that did not complete (naming why; a collection's run that completed is judged by
// its requests' cases alone), and each threshold.
std::string runCases(const RunSummary& s, std::size_t& tests, std::size_t& failures)
{
    std::string out;
    if (!s.reason.empty() && (!s.testsVerdict || s.status != "completed")) {
        ++tests;
        ++failures;
        out += "    <testcase classname=\"run\" name=\"the run completed\">\n      <failure message=\"" +
               escapeXml(s.reason) + "\" type=\"" + escapeXml(s.status) + "\"/>\n    </testcase>\n";
    }
    for (const auto& t : s.thresholds) {
        ++tests;
        out += "    <testcase classname=\"thresholds\" name=\"" + escapeXml(t.expr) + "\"";
        if (t.passed) {
            out += "/>\n";
            continue;
        }
        ++failures;
        out += ">\n      <failure message=\"" +
               escapeXml(t.expr + ": " + (t.note.empty() ? "measured " + seconds(t.value) : t.note)) +
               "\" type=\"threshold\"/>\n    </testcase>\n";
    }
    return out;
}

// A scenario's run: one suite, a case per threshold and per check.
std::string scenarioJUnit(const RunSummary& s)
{
    std::size_t tests = 0, failures = 0;
    std::string cases = runCases(s, tests, failures);
    for (const auto& c : s.total.checks) { // a check some answer failed is a failing case
        ++tests;
        const std::uint64_t judged = c.passed + c.failed;
        cases += "    <testcase classname=\"checks\" name=\"" + escapeXml(c.name) + "\"";
        if (!c.failed) {
            cases += "/>\n";
            continue;
        }
        ++failures;
        char share[32];
        std::snprintf(share, sizeof share, "%.3f", 100.0 * double(c.failed) / double(judged));
        cases += ">\n      <failure message=\"" +
                 escapeXml(count(c.failed) + " of " + count(judged) + " answers failed it (" + share + " %)" +
                           (c.message.empty() ? "" : ": " + c.message)) +
                 "\" type=\"check\"/>\n    </testcase>\n";
    }
    // every count on both levels (Jenkins' xUnit schema: errors and skipped too)
    const std::string time = seconds(s.durationS);
    std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"stampede\" tests=\"" +
                      count(tests) + "\" failures=\"" + count(failures) + "\" errors=\"0\" time=\"" + time + "\">\n";
    out += "  <testsuite name=\"" + escapeXml(s.scenario) + "\" tests=\"" + count(tests) + "\" failures=\"" +
           count(failures) + "\" errors=\"0\" skipped=\"0\" time=\"" + time + "\">\n";
    out += "    <properties><property name=\"run_id\" value=\"" + escapeXml(s.runId) + "\"/>" +
           "<property name=\"requests\" value=\"" + count(s.total.requests) + "\"/>" +
           "<property name=\"verdict\" value=\"" + escapeXml(verdictText(s)) + "\"/></properties>\n";
    return out + cases + "  </testsuite>\n</testsuites>\n";
}

// One request of a collection's run, as newman's JUnit reporter writes it.
std::string requestSuite(const RunSummary& s, const MetricsSummary& step, double& time, std::size_t& tests,
                         std::size_t& failures, std::size_t& errors)
{
    const std::string name = step.folder.empty() ? step.name : step.folder + " / " + step.name;
    std::string classname = junitClassName(name);
    if (classname.empty())
        classname = junitClassName(s.scenario);
    const std::string mean = seconds(step.latency.mean / 1000.0);
    std::uint64_t failed = 0, judged = 0;
    std::string cases;
    for (const auto& c : step.checks) {
        if (c.passed + c.failed == 0)
            continue; // a test its script did not run: newman lists those that ran
        judged += c.passed + c.failed;
        const std::string test = c.name.substr(std::min(c.name.size(), step.name.size() + 1)); // "step/test"
        cases += "    <testcase name=\"" + escapeXml(test) + "\" time=\"" + mean + "\" classname=\"" +
                 escapeXml(classname) + "\"";
        if (!c.failed) {
            cases += "/>\n";
            continue;
        }
        failed += c.failed;
        const std::string message = c.message.empty() ? "failed" : c.message;
        cases +=
            ">\n      <failure type=\"AssertionFailure\" message=\"" + escapeXml(message) + "\">" +
            cdata("Failed " + count(c.failed) + " times.\nCollection name: " + s.scenario + ".\nRequest name: " + name +
                  ".\nTest description: " + test + ".\nError message: " + message + ".") +
            "</failure>\n    </testcase>\n";
    }
    std::uint64_t errored = 0;
    std::string errorText;
    for (std::size_t k = 0; k < kErrorClassCount; ++k)
        if (step.errorsByClass[k] && requestError(ErrorClass(k))) {
            errored += step.errorsByClass[k];
            errorText += std::string(errorText.empty() ? "" : ", ") + std::string(errorClassName(ErrorClass(k))) + " " +
                         count(step.errorsByClass[k]);
        }
    // newman's count is of one execution's tests (its last): those judged per request, when each ran the same
    const std::uint64_t resends = step.redirects + step.authChallenges; // hops and challenges' answers are not
    const std::uint64_t executions = step.requests - std::min(step.requests, resends);
    const std::uint64_t perRequest = executions ? (judged + executions / 2) / executions : judged;
    time += step.latency.mean / 1000.0;
    tests += judged;
    failures += failed;
    errors += errored;
    return "  <testsuite name=\"" + escapeXml(name) + "\" tests=\"" + count(perRequest) + "\" failures=\"" +
           count(failed) + "\" errors=\"" + count(errored) + "\" skipped=\"0\" time=\"" + mean + "\">\n" + cases +
           (errorText.empty() ? "" : "    <system-err>" + cdata("Errors: " + errorText) + "</system-err>\n") +
           "  </testsuite>\n";
}

// A collection's run: a suite per request that ran (newman lists those it executed), after the run's own
// cases when it has any.
std::string collectionJUnit(const RunSummary& s)
{
    std::size_t tests = 0, failures = 0, errors = 0;
    double time = 0;
    std::string suites;
    std::size_t runTests = 0, runFailures = 0;
    const std::string own = runCases(s, runTests, runFailures);
    if (!own.empty())
        suites += "  <testsuite name=\"" + escapeXml(s.scenario) + "\" tests=\"" + count(runTests) + "\" failures=\"" +
                  count(runFailures) + "\" errors=\"0\" skipped=\"0\" time=\"" + seconds(s.durationS) + "\">\n" + own +
                  "  </testsuite>\n";
    for (const MetricsSummary& step : s.steps) { // those that ran: sent, or judged by a pre-request script
        bool judged = step.requests > 0;
        for (const auto& c : step.checks)
            judged |= c.passed + c.failed > 0;
        if (judged)
            suites += requestSuite(s, step, time, tests, failures, errors);
    }
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"" + escapeXml(s.scenario) + "\" tests=\"" +
           count(tests + runTests) + "\" failures=\"" + count(failures + runFailures) + "\" errors=\"" + count(errors) +
           "\" time=\"" + seconds(time) + "\">\n" + suites + "</testsuites>\n";
}

} // namespace

std::string escapeXml(const std::string& raw)
{
    std::string out;
    for (char c : xmlSafe(raw)) {
        switch (c) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&apos;";
            break;
        default:
            out += c;
        }
    }
    return out;
}

std::string junitClassName(const std::string& name)
{
    // lodash's camelCase, then upperFirst and \W dropped: each word capitalized, the rest of it lower case;
    // words split at what is not an ASCII letter or digit, where a lower-case letter or a digit meets an
    // upper-case letter, where a letter follows a digit, and before the last capital of a run ("HTTPServer")
    std::string out;
    bool wordStart = true;
    char previous = 0;
    for (std::size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        const bool upper = c >= 'A' && c <= 'Z', lower = c >= 'a' && c <= 'z', digit = c >= '0' && c <= '9';
        if (!upper && !lower && !digit) {
            wordStart = true;
            previous = 0;
            continue;
        }
        const bool next = i + 1 < name.size() && name[i + 1] >= 'a' && name[i + 1] <= 'z';
        const bool afterLower = previous >= 'a' && previous <= 'z', afterDigit = previous >= '0' && previous <= '9';
        if ((upper && (afterLower || (previous >= 'A' && previous <= 'Z' && next))) || (!digit && afterDigit))
            wordStart = true;
        out += wordStart && lower ? char(c - 'a' + 'A') : !wordStart && upper ? char(c - 'A' + 'a') : c;
        wordStart = false;
        previous = c;
    }
    return out;
}

std::string exportJUnit(const RunSummary& s)
{
    return s.testsVerdict ? collectionJUnit(s) : scenarioJUnit(s);
}

} // namespace stampede
