#include "serverscraper.h"

#include "core/text.h"

#include "check/jsonpath.h"
#include "metrics/promtext.h"
#include "net/httpexchange.h"

#include <charconv>
#include <chrono>
#include <cstdio>

namespace stampede {

namespace {

constexpr Nanos kDeadline = 800 * kNanosPerMilli;

std::optional<double> number(const std::string& text)
{
    double v = 0;
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || r.ptr != text.data() + text.size())
        return std::nullopt;
    return v;
}

JsonPath path(const char* text)
{
    std::string ignored;
    return *JsonPath::compile(text, ignored);
}

// {"status": "success", "data": {"resultType": "vector", "result": [{"value": [ts, "1.5"]}]}}
std::optional<double> prometheusValue(const std::string& body, std::string& error, bool* badQuery)
{
    JsonReader reader;
    reader.load(body);
    std::string status, value;
    if (reader.read(path("$.status"), status) != JsonReader::Outcome::Found) {
        error = "the answer is not Prometheus's API JSON";
        return std::nullopt;
    }
    if (status != "success") {
        std::string why, type;
        reader.read(path("$.error"), why);
        reader.read(path("$.errorType"), type);
        error = "Prometheus says: " + (why.empty() ? status : why);
        if (badQuery)
            *badQuery = type == "bad_data"; // the query itself: not something that passes by
        return std::nullopt;
    }
    if (reader.read(path("$.data.result[0].value[1]"), value) != JsonReader::Outcome::Found &&
        reader.read(path("$.data.result[1]"), value) != JsonReader::Outcome::Found) { // a scalar
        error = "the query gave no value (an empty result)";
        return std::nullopt;
    }
    auto v = number(value);
    if (!v)
        error = "the query's value \"" + value + "\" is not a number";
    return v;
}

} // namespace

ServerScraper::ServerScraper(std::vector<ServerMetricPlan> sources) : m_sources(std::move(sources)) {}

ServerScraper::~ServerScraper()
{
    stop();
}

std::optional<double> ServerScraper::read(const ServerMetricPlan& source, std::string& error, bool* badQuery)
{
    HttpExchangeRequest rq;
    rq.url = source.prometheus ? source.url + (source.url.back() == '/' ? "" : "/") +
                                     "api/v1/query?query=" + percentEncode(source.query)
                               : source.url;
    rq.timeout = kDeadline;
    const HttpExchangeResult r = exchange(rq);
    if (!r.ok) {
        error = r.error;
        return std::nullopt;
    }
    if (source.prometheus && (r.status == 200 || r.status == 400 || r.status == 422))
        return prometheusValue(r.body, error, badQuery); // a bad query is a 400 with the server's message
    if (r.status != 200) {
        error = "HTTP " + std::to_string(r.status) + " " + r.reason;
        return std::nullopt;
    }
    const PromParse parsed = parsePromText(r.body);
    auto v = promValue(parsed, source.series, source.labels);
    if (!v)
        error = "no series " + source.series + " with those labels";
    return v;
}

void ServerScraper::preflight(const std::vector<ServerMetricPlan>& sources, std::vector<std::string>& errors,
                              std::vector<std::string>& warnings)
{
    for (std::size_t i = 0; i < sources.size(); ++i) {
        const ServerMetricPlan& s = sources[i];
        std::string error;
        bool badQuery = false;
        if (read(s, error, &badQuery))
            continue;
        const std::string field = "serverMetrics[" + std::to_string(i) + "] " + s.name;
        if (badQuery)
            errors.push_back(field + ": query: " + error);
        else
            warnings.push_back(field + ": not readable before the run (" + error + "); it is read again each second");
    }
}

void ServerScraper::start()
{
    if (m_sources.empty() || m_thread.joinable())
        return;
    m_thread = std::thread([this] { loop(); });
}

void ServerScraper::stop()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
        m_thread.join();
}

std::map<std::string, double> ServerScraper::latest() const
{
    std::lock_guard lock(m_mutex);
    return m_latest;
}

std::vector<std::string> ServerScraper::takeProblems()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_problems, {});
}

void ServerScraper::loop()
{
    using Clock = std::chrono::steady_clock;
    std::vector<std::optional<std::pair<Clock::time_point, double>>> previous(m_sources.size());
    std::vector<bool> failing(m_sources.size());
    auto next = Clock::now();
    for (;;) {
        for (std::size_t i = 0; i < m_sources.size(); ++i) {
            const ServerMetricPlan& s = m_sources[i];
            std::string error;
            const auto v = read(s, error);
            const auto at = Clock::now();
            std::lock_guard lock(m_mutex);
            if (!v) {
                m_latest.erase(s.name); // no stale value stands in for a failed read
                if (!failing[i])
                    m_problems.push_back(s.name + ": " + error);
                failing[i] = true;
                continue;
            }
            if (failing[i])
                m_problems.push_back(s.name + ": read again");
            failing[i] = false;
            if (!s.rate) {
                m_latest[s.name] = *v;
                continue;
            }
            if (previous[i] && at > previous[i]->first && *v >= previous[i]->second) // a reset starts again
                m_latest[s.name] =
                    (*v - previous[i]->second) / std::chrono::duration<double>(at - previous[i]->first).count();
            previous[i] = std::make_pair(at, *v);
        }
        next += std::chrono::seconds(1);
        std::unique_lock lock(m_mutex);
        if (m_wake.wait_until(lock, next, [this] { return m_stop; }))
            return;
    }
}

} // namespace stampede
