#include "checkrun.h"

#include "plan/checkplan.h"
#include "stampede/v1/scenario.pb.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <google/protobuf/util/json_util.h>

using namespace stampede;

namespace {

// What compiling a step's checks needs of a scenario: only where faults go.
class Faults final : public StepContext
{
public:
    explicit Faults(QStringList& errors) : m_errors(errors) {}
    const v1::Scenario& scenario() const override { return m_scenario; }
    const PlanOptions& options() const override { return m_options; }
    const ScenarioPlan& plan() const override { return m_plan; }
    void error(std::string field, std::string message) override
    {
        const std::string prefix = "steps[0].";
        if (field.rfind(prefix, 0) == 0)
            field.erase(0, prefix.size());
        m_errors << QString::fromStdString(field + ": " + message);
    }
    bool compileText(const std::string&, const std::string&, Template&) override { return false; }
    std::shared_ptr<TlsContext> tlsContext(bool) override { return nullptr; }
    Template traceparent() override { return {}; } // checks make no request
    bool fileOrInline(const std::string&, const std::string&, const std::string&, std::string&) override
    {
        return false;
    }

private:
    QStringList& m_errors;
    v1::Scenario m_scenario;
    PlanOptions m_options;
    ScenarioPlan m_plan;
};

} // namespace

CheckRun runChecks(const QJsonArray& checks, const QJsonArray& extract, const CheckAnswer& answer)
{
    CheckRun out;
    v1::Step step;
    const QJsonObject json{{QStringLiteral("checks"), checks}, {QStringLiteral("extract"), extract}};
    const auto parsed = google::protobuf::util::JsonStringToMessage(
        QJsonDocument(json).toJson(QJsonDocument::Compact).toStdString(), &step);
    if (!parsed.ok()) {
        out.errors << QString::fromStdString(std::string(parsed.message()));
        return out;
    }
    // the extracted names are variables of a plan of this one step
    ScenarioPlan plan;
    for (const auto& x : step.extract()) {
        PlannedVariable v;
        v.name = x.name();
        v.extracted = true;
        plan.variables.push_back(std::move(v));
    }
    PlannedStep ps;
    if (answer.grpc)
        ps.grpc = std::make_shared<GrpcMethodPlan>(); // status checks take gRPC codes by name
    Faults faults(out.errors);
    compileChecks(step, "steps[0]", plan, faults, ps);
    if (!out.errors.isEmpty())
        return out;

    HeaderPairs headers;
    for (const auto& [n, v] : answer.headers)
        headers.emplace_back(n.toStdString(), v.toStdString());
    const std::string body = answer.body.toStdString();
    AnswerView a;
    a.status = answer.status;
    if (answer.grpc)
        a.statusName = "grpc-status";
    a.headers = &headers;
    a.body = body;
    a.elapsedNanos = std::int64_t(answer.elapsedMs * 1e6);
    JsonReader reader;
    AnswerJson json2(reader, a.body);
    for (const auto& c : ps.checks) {
        std::string why;
        const bool passed = c.evaluate(a, json2, why);
        out.checks.append({QString::fromStdString(c.name), passed, passed ? QString() : QString::fromStdString(why)});
    }
    for (const auto& x : ps.extractors) {
        std::string value;
        const bool found = x.extract(a, json2, value);
        out.extracted.append({QString::fromStdString(x.name), found, QString::fromStdString(value)});
    }
    return out;
}
