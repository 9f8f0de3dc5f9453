#include "mockrules.h"

#include "stampede/v1/mock.pb.h"

#include "core/jsondepth.h"
#include "core/text.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>

namespace stampede {

namespace {

// The longest delay a rule may ask for (a minute: longer is a hung server, which a timeout tests as well).
constexpr double kMaxRuleDelayMs = 60000;
// How deep a rules file's JSON may nest (a rule's body object included).
constexpr std::size_t kMaxRulesDepth = 64;

// rateLimit: {"perSecond": N, "status": 429}, {"perSecond": N, "delayMs": 200} or {"perSecond": N, "queue": true}
bool setRateLimit(MockRule& rule, const v1::MockRateLimit& l, const std::string& field, std::string& error)
{
    constexpr std::uint32_t kMaxPerSecond = 100000000; // more than any server answers
    if (l.per_second() == 0 || l.per_second() > kMaxPerSecond) {
        error = field + ".perSecond: must be between 1 and " + std::to_string(kMaxPerSecond);
        return false;
    }
    if (!(l.delay_ms() >= 0) || l.delay_ms() > kMaxRuleDelayMs) {
        error = field + ".delayMs: must be between 0 and 60000";
        return false;
    }
    const unsigned status = l.status() ? l.status() : 429;
    if (status < 100 || status > 599) {
        error = field + ".status: " + std::to_string(status) + " is not an HTTP status";
        return false;
    }
    if (l.queue() && l.delay_ms() > 0) {
        error = field + ": queue and delayMs exclude each other (a queue's delay is its length)";
        return false;
    }
    if (rule.grpc && l.delay_ms() == 0 && !l.queue()) {
        error = field + ": a gRPC rule's limit slows answers down: give delayMs or queue";
        return false;
    }
    rule.limitPerSecond = l.per_second();
    rule.limitStatus = status;
    rule.limitDelay = std::int64_t(l.delay_ms() * 1e6);
    rule.limitQueue = l.queue();
    rule.limitedBody = "{\"code\": " + std::to_string(status) + ", \"message\": \"over " +
                       std::to_string(l.per_second()) + " requests a second\"}";
    rule.limitedResponse = renderHttpResponse(status, {{"Content-Type", "application/json"}}, rule.limitedBody);
    return true;
}

const char* reason(unsigned status)
{
    switch (status) {
    case 200:
        return "OK";
    case 201:
        return "Created";
    case 204:
        return "No Content";
    case 301:
        return "Moved Permanently";
    case 302:
        return "Found";
    case 304:
        return "Not Modified";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 403:
        return "Forbidden";
    case 404:
        return "Not Found";
    case 408:
        return "Request Timeout";
    case 411:
        return "Length Required";
    case 413:
        return "Content Too Large";
    case 431:
        return "Request Header Fields Too Large";
    case 429:
        return "Too Many Requests";
    case 500:
        return "Internal Server Error";
    case 502:
        return "Bad Gateway";
    case 503:
        return "Service Unavailable";
    case 504:
        return "Gateway Timeout";
    default:
        return "Status";
    }
}

std::vector<std::string> split(std::string_view path)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while (pos <= path.size()) {
        std::size_t slash = path.find('/', pos);
        if (slash == std::string_view::npos)
            slash = path.size();
        out.emplace_back(path.substr(pos, slash - pos));
        pos = slash + 1;
    }
    return out;
}

// A streaming method's rule: its messages converted once, how many, how far apart.
std::shared_ptr<const MockGrpcStream> grpcStreamRule(const ProtoSchema& schema,
                                                     const google::protobuf::MethodDescriptor* md,
                                                     const v1::MockGrpc& g, const std::string& field,
                                                     std::string& error)
{
    auto st = std::make_shared<MockGrpcStream>();
    st->clientStreams = md->client_streaming();
    st->serverStreams = md->server_streaming();
    st->echo = g.echo();
    if (!std::isfinite(g.every_ms()) || g.every_ms() < 0 || g.every_ms() > kMaxRuleDelayMs) {
        error = field + ".grpc.everyMs: must be between 0 and " + std::to_string(int(kMaxRuleDelayMs));
        return nullptr;
    }
    st->every = std::int64_t(g.every_ms() * 1e6);
    if (g.count() > MockGrpcStream::kMaxCount) {
        error = field + ".grpc.count: at most " + std::to_string(MockGrpcStream::kMaxCount);
        return nullptr;
    }
    if (!st->serverStreams && (g.count() > 1 || g.responses_size() > 1 || g.every_ms() != 0)) {
        error = field + ".grpc: " + md->full_name() + " answers one message: count, responses and everyMs are " +
                "for methods whose server streams";
        return nullptr;
    }
    if (st->echo && (g.responses_size() || g.count())) {
        error = field + ".grpc.echo: echo sends back what the client sends; leave responses and count out";
        return nullptr;
    }
    std::vector<std::string> texts(g.responses().begin(), g.responses().end());
    if (texts.empty())
        texts.push_back(g.response().empty() ? "{}" : g.response());
    for (std::size_t i = 0; i < texts.size(); ++i) {
        std::string binary;
        if (!jsonToBinary(schema, md->output_type(), texts[i], binary, error)) {
            error = field + (g.responses_size() ? ".grpc.responses[" + std::to_string(i) + "]: " : ".grpc.response: ") +
                    error;
            return nullptr;
        }
        st->frames.push_back(grpcFrame(binary));
    }
    st->count = g.count() ? g.count() : std::uint32_t(st->frames.size());
    return st;
}

} // namespace

std::string renderHttpResponse(unsigned status, const std::vector<std::pair<std::string, std::string>>& headers,
                               const std::string& body)
{
    std::string r = "HTTP/1.1 " + std::to_string(status) + " " + reason(status) + "\r\n";
    bool hasType = false;
    for (const auto& [n, v] : headers) {
        r += n + ": " + v + "\r\n";
        if (n.size() == 12 && (n[0] | 0x20) == 'c' && (n[8] | 0x20) == 't')
            hasType = true;
    }
    if (!hasType && !body.empty())
        r += "Content-Type: text/plain\r\n";
    r += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return r;
}

std::uint32_t MockRule::meets(std::string_view name, std::string_view value) const
{
    std::uint32_t bits = 0;
    for (std::size_t i = 0; i < require.size(); ++i) {
        if (equalsNoCase(require[i].first, name) && (require[i].second.empty() || require[i].second == value))
            bits |= 1u << i;
    }
    return bits;
}

bool MockRule::matches(std::string_view m, std::string_view p) const
{
    if (!method.empty() && method != m)
        return false;
    switch (pathKind) {
    case PathKind::Exact:
        return p == path;
    case PathKind::Prefix:
        // "/a/*" (stored as "/a/") matches "/a" and everything below "/a/"
        return p.substr(0, path.size()) == path || p == std::string_view(path).substr(0, path.size() - 1);
    case PathKind::Pattern: {
        std::size_t pos = 0;
        for (std::size_t i = 0; i < segments.size(); ++i) {
            if (pos > p.size())
                return false;
            std::size_t slash = p.find('/', pos);
            const bool last = i + 1 == segments.size();
            if (slash == std::string_view::npos)
                slash = p.size();
            else if (last)
                return false;
            const std::string_view seg = p.substr(pos, slash - pos);
            const std::string& want = segments[i];
            const bool param = want.size() >= 2 && want.front() == '{' && want.back() == '}';
            if (param ? seg.empty() : seg != want)
                return false;
            pos = slash + 1;
            if (!last && slash == p.size())
                return false;
        }
        return true;
    }
    }
    return false;
}

bool MockRule::overLimit(std::int64_t nowNanos) const
{
    if (!limitPerSecond)
        return false;
    const std::uint64_t second = std::uint64_t(nowNanos / 1000000000) & 0xffffffffu;
    std::uint64_t seen = window.load(std::memory_order_relaxed);
    std::uint64_t next;
    do {
        next = (seen >> 32) == second ? seen + 1 : (second << 32) | 1;
    } while (!window.compare_exchange_weak(seen, next, std::memory_order_relaxed));
    if ((next & 0xffffffffu) <= limitPerSecond)
        return false;
    limited.fetch_add(1, std::memory_order_relaxed);
    return true;
}

std::int64_t MockRule::queueDelay(std::int64_t nowNanos) const
{
    constexpr std::int64_t kBurst = 10000000;       // 10 ms of answers may go at once
    constexpr std::int64_t kMaxQueue = 60000000000; // past a minute of queue: refused
    const std::int64_t gap = 1000000000 / std::int64_t(limitPerSecond);
    std::int64_t free = nextFree.load(std::memory_order_relaxed);
    std::int64_t slot;
    do {
        slot = std::max(free, nowNanos - kBurst);
        if (slot - nowNanos > kMaxQueue) {
            limited.fetch_add(1, std::memory_order_relaxed);
            return -1;
        }
    } while (!nextFree.compare_exchange_weak(free, slot + gap, std::memory_order_relaxed));
    if (slot <= nowNanos)
        return 0;
    limited.fetch_add(1, std::memory_order_relaxed);
    return slot - nowNanos;
}

std::int64_t MockRule::drawDelay(FastRandom& rng) const
{
    double ms = 0;
    switch (delay) {
    case Delay::None:
        return 0;
    case Delay::Fixed:
        ms = a;
        break;
    case Delay::Uniform:
        ms = a + (b - a) * rng.unit();
        break;
    case Delay::Normal:
    case Delay::LongTail: {
        // Box-Muller; for the long tail, a log-normal with mu = a, sigma = b
        const double u1 = std::max(rng.unit(), 1e-12);
        const double z = std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * rng.unit());
        ms = delay == Delay::Normal ? a + b * z : std::exp(a + b * z);
        break;
    }
    }
    return std::int64_t(std::max(0.0, ms) * 1e6);
}

std::shared_ptr<MockRuleSet> MockRuleSet::fromProto(const v1::MockRules& rules, std::string& error,
                                                    const std::string& baseDir)
{
    auto set = std::make_shared<MockRuleSet>();
    set->m_notFound = renderHttpResponse(404, {}, "no mock rule matches this request\n");
    if (!rules.descriptors().empty()) {
        set->m_schema = ProtoSchema::fromDescriptorSet(rules.descriptors(), error);
        if (!set->m_schema) {
            error = "descriptors: " + error;
            return nullptr;
        }
    } else if (rules.protos_size()) {
        set->m_schema = ProtoSchema::importUnder(baseDir, rules.protos(), rules.import_paths(), error);
        if (!set->m_schema) {
            error = "protos: " + error;
            return nullptr;
        }
    }
    for (int i = 0; i < rules.rules_size(); ++i) {
        const auto& r = rules.rules(i);
        const std::string field = "rules[" + std::to_string(i) + "]";
        auto rule = std::make_unique<MockRule>();
        rule->name = r.name().empty() ? "rule " + std::to_string(i + 1) : r.name();
        rule->method = r.method();
        for (auto& c : rule->method)
            c = char(std::toupper(static_cast<unsigned char>(c)));
        std::string path = r.path().empty() ? "/*" : r.path();
        if (r.has_grpc()) {
            const auto& g = r.grpc();
            if (!set->m_schema) {
                error = field + ".grpc: gRPC rules need the .proto files (protos) or descriptors of the rules file";
                return nullptr;
            }
            const auto* md = set->m_schema->method(g.method(), error);
            if (!md) {
                error = field + ".grpc.method: " + error;
                return nullptr;
            }
            if (g.status() > 16 || r.error_status() > 16) {
                error = field + (g.status() > 16 ? ".grpc.status" : ".errorStatus") + ": not a gRPC status (0 to 16)";
                return nullptr;
            }
            std::string binary;
            if (!jsonToBinary(*set->m_schema, md->output_type(), g.response().empty() ? "{}" : g.response(), binary,
                              error)) {
                error = field + ".grpc.response: " + error;
                return nullptr;
            }
            if (md->client_streaming() || md->server_streaming()) {
                rule->grpcStream = grpcStreamRule(*set->m_schema, md, g, field, error);
                if (!rule->grpcStream)
                    return nullptr;
            } else if (g.echo() || g.responses_size() || g.count() || g.every_ms() != 0) {
                error = field + ".grpc: " + md->full_name() + " is unary: echo, responses, count and everyMs are " +
                        "for streaming methods";
                return nullptr;
            }
            rule->grpc = true;
            rule->method = "POST";
            path = "/" + md->service()->full_name() + "/" + md->name();
            rule->body = grpcFrame(binary);
            rule->grpcStatus = g.status();
            rule->grpcMessage = g.message();
            rule->grpcErrorStatus = r.error_status() ? r.error_status() : 14;
            rule->headers = {{"content-type", "application/grpc"}};
            rule->response = renderHttpResponse(200, {{"Content-Type", "application/grpc"}}, rule->body);
            rule->errorResponse = rule->response;
        }
        if (path.front() != '/') {
            error = field + ".path: must start with / (got \"" + path + "\")";
            return nullptr;
        }
        if (path.size() >= 2 && path.substr(path.size() - 2) == "/*") {
            rule->pathKind = MockRule::PathKind::Prefix;
            path.pop_back(); // keep the trailing slash
        } else if (path.find('{') != std::string::npos) {
            rule->pathKind = MockRule::PathKind::Pattern;
            rule->segments = split(path);
        }
        rule->path = path;
        if (!rule->grpc) { // a gRPC rule's answer is made above
            const unsigned status = r.status() ? r.status() : 200;
            if (status < 100 || status > 599) {
                error = field + ".status: " + std::to_string(status) + " is not an HTTP status";
                return nullptr;
            }
            std::vector<std::pair<std::string, std::string>> headers;
            for (const auto& h : r.headers()) {
                if (h.name().empty() || h.name().find_first_of(": \r\n") != std::string::npos ||
                    h.value().find_first_of("\r\n") != std::string::npos) {
                    error = field + ".headers: \"" + h.name() + "\" is not a valid header";
                    return nullptr;
                }
                headers.emplace_back(h.name(), h.value());
            }
            rule->response = renderHttpResponse(status, headers, r.body());
            const unsigned errStatus = r.error_status() ? r.error_status() : 500;
            if (!r.error_body().empty()) {
                rule->errorBody = r.error_body();
                const auto first = r.error_body().find_first_not_of(" \t\r\n");
                if (first != std::string::npos && (r.error_body()[first] == '{' || r.error_body()[first] == '['))
                    rule->errorType = "application/json";
            }
            rule->errorResponse = renderHttpResponse(errStatus, {{"Content-Type", rule->errorType}}, rule->errorBody);
            rule->status = status;
            rule->errorStatus = errStatus;
            for (auto& [n, v] : headers) {
                const std::string lower = asciiLower(n);
                if (!isConnectionHeader(lower) && lower != "content-length") // HTTP/2 frames the body itself
                    rule->headers.emplace_back(lower, v);
            }
            rule->body = r.body();
        }
        if (r.error_percent() < 0 || r.error_percent() > 100) {
            error = field + ".errorPercent: must be between 0 and 100";
            return nullptr;
        }
        rule->errorPercent = r.error_percent();
        if (r.has_rate_limit() && !setRateLimit(*rule, r.rate_limit(), field + ".rateLimit", error))
            return nullptr;
        if (!compileMockStream(r, field, rule->stream, error))
            return nullptr;
        if (r.require_size() > 16) {
            error = field + ".require: at most 16 headers";
            return nullptr;
        }
        for (const auto& h : r.require()) {
            if (h.name().empty() || h.name().find_first_of(": \r\n") != std::string::npos) {
                error = field + ".require: \"" + h.name() + "\" is not a header name";
                return nullptr;
            }
            rule->require.emplace_back(asciiLower(h.name()), h.value());
        }
        if (!rule->require.empty()) {
            std::string names;
            for (const auto& [n, v] : rule->require)
                names += (names.empty() ? "" : ", ") + n;
            rule->refusedBody = "{\"code\": 401, \"message\": \"missing or wrong " + names + "\"}";
            rule->refusedResponse = renderHttpResponse(401, {{"Content-Type", "application/json"}}, rule->refusedBody);
            set->m_anyRequire = true;
        }
        const auto& d = r.delay();
        switch (d.kind_case()) {
        case v1::MockDelay::kFixedMs:
            rule->delay = MockRule::Delay::Fixed;
            rule->a = d.fixed_ms();
            break;
        case v1::MockDelay::kUniform:
            rule->delay = MockRule::Delay::Uniform;
            rule->a = d.uniform().min_ms();
            rule->b = d.uniform().max_ms();
            if (rule->b < rule->a) {
                error = field + ".delay.uniform.maxMs: must not be below minMs";
                return nullptr;
            }
            break;
        case v1::MockDelay::kNormal:
            rule->delay = MockRule::Delay::Normal;
            rule->a = d.normal().mean_ms();
            rule->b = d.normal().stddev_ms();
            break;
        case v1::MockDelay::kLongTail:
            if (d.long_tail().median_ms() <= 0 || d.long_tail().p99_ms() < d.long_tail().median_ms()) {
                error = field + ".delay.longTail: needs 0 < medianMs <= p99Ms";
                return nullptr;
            }
            rule->delay = MockRule::Delay::LongTail;
            rule->a = std::log(d.long_tail().median_ms());
            rule->b = (std::log(d.long_tail().p99_ms()) - rule->a) / 2.3263478740408408; // z of p99
            break;
        case v1::MockDelay::KIND_NOT_SET:
            break;
        }
        if (rule->a < 0 || rule->b < 0) {
            if (rule->delay != MockRule::Delay::LongTail) {
                error = field + ".delay: must not be negative";
                return nullptr;
            }
        }
        const double largest = d.kind_case() == v1::MockDelay::kLongTail ? d.long_tail().p99_ms()
                               : d.kind_case() == v1::MockDelay::kNormal
                                   ? d.normal().mean_ms() + 6 * d.normal().stddev_ms()
                                   : std::max(rule->a, rule->b);
        if (!(largest <= kMaxRuleDelayMs)) { // NaN too
            error = field + ".delay: at most " + std::to_string(int(kMaxRuleDelayMs)) +
                    " ms (a longer wait is a hung server: a client's timeout tests it as well)";
            return nullptr;
        }
        if (rule->grpcStream && (rule->delay != MockRule::Delay::None || rule->limitPerSecond)) {
            error = field + ": a streaming method's rule paces itself with grpc.everyMs (no delay or rateLimit)";
            return nullptr;
        }
        set->m_rules.push_back(std::move(rule));
    }
    return set;
}

std::shared_ptr<MockRuleSet> MockRuleSet::fromJson(const std::string& json, std::string& error,
                                                   const std::string& baseDir)
{
    if (jsonTooDeep(json, kMaxRulesDepth) != std::string_view::npos) {
        error = "the rules nest deeper than " + std::to_string(kMaxRulesDepth) + " levels";
        return nullptr;
    }
    v1::MockRules rules;
    const auto status = google::protobuf::util::JsonStringToMessage(json, &rules);
    if (!status.ok()) {
        error = std::string(status.message());
        return nullptr;
    }
    return fromProto(rules, error, baseDir);
}

std::shared_ptr<MockRuleSet> MockRuleSet::defaults()
{
    v1::MockRules rules;
    auto* r = rules.add_rules();
    r->set_name("default");
    r->set_path("/*");
    r->set_body("ok");
    std::string error;
    return fromProto(rules, error);
}

const MockRule* MockRuleSet::match(std::string_view method, std::string_view path) const
{
    for (const auto& r : m_rules)
        if (r->matches(method, path))
            return r.get();
    return nullptr;
}

std::uint64_t MockRuleSet::total() const
{
    std::uint64_t t = m_unmatched.load(std::memory_order_relaxed);
    for (const auto& r : m_rules)
        t += r->served.load(std::memory_order_relaxed);
    return t;
}

std::string MockRuleSet::statsJson() const
{
    std::string s = "{\"total\": " + std::to_string(total()) +
                    ", \"unmatched\": " + std::to_string(m_unmatched.load(std::memory_order_relaxed)) +
                    ", \"rules\": [";
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        std::string name;
        for (char c : m_rules[i]->name)
            name += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
        s += (i ? ", " : "") + std::string("{\"name\": \"") + name +
             "\", \"served\": " + std::to_string(m_rules[i]->served.load(std::memory_order_relaxed)) +
             ", \"refused\": " + std::to_string(m_rules[i]->refused.load(std::memory_order_relaxed)) +
             ", \"injected\": " + std::to_string(m_rules[i]->injected.load(std::memory_order_relaxed)) +
             ", \"limited\": " + std::to_string(m_rules[i]->limited.load(std::memory_order_relaxed)) + "}";
    }
    return s + "]}\n";
}

} // namespace stampede
