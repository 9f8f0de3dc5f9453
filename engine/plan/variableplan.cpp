#include "variableplan.h"

#include "core/shareddata.h"

#include "checkplan.h"
#include "scriptplan.h"

#include "core/csvtable.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cctype>

namespace stampede {

namespace {

// A name a scenario's variable may have: a letter or _, then letters, digits, _ and -.
bool isVariableName(std::string_view s)
{
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_'))
        return false;
    for (char c : s)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'))
            return false;
    return true;
}

constexpr std::size_t kFreshDynamicsUpTo = 60000; // variable indexes are 16 bits

} // namespace

// A collection run's names are Postman's ("fo/o", "Global Foo"); a scenario's letters, digits, _ and -.
bool VariableCompiler::nameOk(std::string_view name) const
{
    return m_plan.testsVerdict ? isPostmanName(name) : isVariableName(name);
}

void VariableCompiler::compile()
{
    for (int i = 0; i < m_ctx.scenario().variables_size(); ++i) {
        const auto& v = m_ctx.scenario().variables(i);
        const std::string field = "variables[" + std::to_string(i) + "]";
        if (!nameOk(v.name())) {
            m_ctx.error(field + ".name",
                        v.name().empty() ? "a variable needs a name"
                                         : "\"" + v.name() + "\" is not a variable name (letters, digits, _ and -)");
            continue;
        }
        for (const auto& existing : m_plan.variables) {
            if (existing.name == v.name())
                m_ctx.error(field + ".name", "variable \"" + v.name() + "\" is defined twice");
        }
        PlannedVariable pv;
        pv.name = v.name();
        for (const auto& [name, value] : m_ctx.options().overrides) {
            if (name == v.name())
                pv.source = makeConstantSource(value);
        }
        if (!pv.source) {
            pv.source = source(v, field);
            if (v.has_constant() && v.constant().scope() == "collection")
                pv.scope = 1;
            else if (v.has_constant() && v.constant().scope() == "globals")
                pv.scope = 0;
            else if (v.has_constant() && !v.constant().scope().empty())
                m_ctx.error(field + ".constant.scope", "\"" + v.constant().scope() +
                                                           "\" is not a scope: \"collection\", \"globals\" or none (an "
                                                           "environment's)");
        }
        if (v.has_csv() && v.csv().has_checkout_wait()) {
            const auto& w = v.csv().checkout_wait();
            if (v.csv().mode() != v1::CSV_MODE_CHECKOUT)
                m_ctx.error(field + ".csv.checkoutWait", "is how long an account pool waits: give \"mode\": "
                                                         "\"CSV_MODE_CHECKOUT\" too");
            else if (const Nanos n = Nanos(w.seconds()) * kNanosPerSecond + w.nanos();
                     w.seconds() < 0 || w.nanos() < 0 || w.seconds() > 3600 || n < 10 * kNanosPerMilli)
                m_ctx.error(field + ".csv.checkoutWait",
                            "must be from 10ms to 1h (a user that failed at once would try again at once)");
            else
                pv.checkoutWait = n;
        }
        if (v.has_csv() && v.csv().mode() == v1::CSV_MODE_CHECKOUT && v.csv().iteration_data())
            m_ctx.error(field + ".csv.mode", "iteration data is read by every user in turn: it is no account pool");
        if (v.has_csv() && v.csv().iteration_data()) {
            if (std::any_of(m_plan.variables.begin(), m_plan.variables.end(),
                            [](const PlannedVariable& p) { return p.iterationData; }))
                m_ctx.error(field + ".csv.iterationData", "a run has one iteration data set");
            pv.iterationData = true;
            pv.used = true; // the iteration's row, for scripts too
        }
        if (pv.source)
            m_plan.variables.push_back(std::move(pv));
    }
    for (const auto& override : m_ctx.options().overrides) {
        const bool known = std::any_of(m_plan.variables.begin(), m_plan.variables.end(),
                                       [&](const PlannedVariable& v) { return v.name == override.first; });
        if (!known)
            m_plan.variables.push_back({override.first, makeConstantSource(override.second), false});
    }
    extractedVariables();
}

// The names steps extract: variables of each user, set from answers.
void VariableCompiler::extractedVariables()
{
    std::vector<std::string> names = extractedNames(m_ctx.scenario());
    const std::size_t extracted = names.size();
    for (std::string& name :
         scriptSetNames(m_ctx.scenario())) // a script's pm.environment.set("name", ...) and the like
        if (std::find(names.begin(), names.end(), name) == names.end())
            names.push_back(std::move(name));
    for (std::size_t n = 0; n < names.size(); ++n) {
        const std::string& name = names[n];
        const std::string field = extractField(name);
        if (n >= extracted && !nameOk(name))
            continue; // a script's own name ("a.b"): its scripts read it, no request can
        if (!nameOk(name)) {
            m_ctx.error(field, name.empty() ? "an extracted value needs a name"
                                            : "\"" + name + "\" is not a variable name (letters, digits, _ and -)");
            continue;
        }
        // a variable of the name is the default until a value is extracted (the scopes: environment.h);
        // the iteration data's column of the name before it (Postman's data above the environment)
        int fallback = -1;
        std::int16_t fallbackColumn = -1;
        for (std::size_t i = 0; i < m_plan.variables.size(); ++i)
            if (m_plan.variables[i].name == name)
                fallback = int(i);
        if (const auto column = dataColumn(name)) {
            fallback = column->variable;
            fallbackColumn = column->column;
        }
        if (fallback >= 0 && fallbackColumn < 0 && m_plan.variables[std::size_t(fallback)].source->hasColumns()) {
            m_ctx.error(field, "\"" + name + "\" is a data set's name, with columns: extract into another name");
            continue;
        }
        if (fallback < 0 && m_plan.testsVerdict) { // until set, sent as "{{name}}" (newman's)
            PlannedVariable literal;
            literal.name = name;
            literal.source = makeConstantSource("{{" + name + "}}");
            literal.literal = true;
            m_plan.variables.push_back(std::move(literal));
            fallback = int(m_plan.variables.size() - 1);
        }
        PlannedVariable pv;
        pv.name = name;
        pv.extracted = true;
        pv.fallback = fallback;
        pv.fallbackColumn = fallbackColumn;
        m_plan.variables.push_back(std::move(pv));
    }
}

// Where `name` is first extracted, for its faults.
std::string VariableCompiler::extractField(const std::string& name) const
{
    for (int i = 0; i < m_ctx.scenario().steps_size(); ++i)
        for (int k = 0; k < m_ctx.scenario().steps(i).extract_size(); ++k)
            if (m_ctx.scenario().steps(i).extract(k).name() == name)
                return "steps[" + std::to_string(i) + "].extract[" + std::to_string(k) + "].name";
    const std::string script = scriptSetField(m_ctx.scenario(), name);
    return script.empty() ? "steps" : script;
}

ParameterSourcePtr VariableCompiler::source(const v1::Variable& v, const std::string& field)
{
    switch (v.source_case()) {
    case v1::Variable::kCsv: {
        const auto& c = v.csv();
        std::string text = c.data();
        std::string origin = "inline data";
        if (text.empty()) {
            if (c.file().empty()) {
                m_ctx.error(field + ".csv.file", "a CSV source needs a file (or inline data)");
                return nullptr;
            }
            if (!m_ctx.fileOrInline(c.file(), {}, field + ".csv.file", text))
                return nullptr;
            origin = c.file();
        }
        if (c.delimiter().size() > 1) {
            m_ctx.error(field + ".csv.delimiter", "must be one character");
            return nullptr;
        }
        auto table = std::make_shared<CsvTable>();
        std::string err;
        if (!table->parse(text, c.delimiter().empty() ? ',' : c.delimiter()[0], err)) {
            m_ctx.error(field + ".csv" + (c.data().empty() ? ".file" : ".data"), origin + " " + err);
            return nullptr;
        }
        if (table->rowCount() == 0) {
            m_ctx.error(field + ".csv", origin + " has a header row but no data rows");
            return nullptr;
        }
        const CsvMode mode = c.mode() == v1::CSV_MODE_STOP       ? CsvMode::Stop
                             : c.mode() == v1::CSV_MODE_PER_USER ? CsvMode::PerUser
                             : c.mode() == v1::CSV_MODE_CHECKOUT ? CsvMode::Checkout
                                                                 : CsvMode::Wrap;
        return makeCsvSource(std::move(table), mode);
    }
    case v1::Variable::kIncrement: {
        const auto& inc = v.increment();
        const std::int64_t step = inc.step() ? inc.step() : 1;
        if (step <= 0) {
            m_ctx.error(field + ".increment.step", "must be positive (got " + std::to_string(step) + ")");
            return nullptr;
        }
        if (inc.max() < inc.min()) {
            m_ctx.error(field + ".increment.max", "must not be below min (" + std::to_string(inc.min()) + ")");
            return nullptr;
        }
        return makeIncrementSource(inc.min(), inc.max(), step);
    }
    case v1::Variable::kRandomInt:
        if (v.random_int().max() < v.random_int().min()) {
            m_ctx.error(field + ".randomInt.max",
                        "must not be below min (" + std::to_string(v.random_int().min()) + ")");
            return nullptr;
        }
        return makeRandomIntSource(v.random_int().min(), v.random_int().max());
    case v1::Variable::kRandomString:
        if (v.random_string().length() == 0 || v.random_string().length() > 65536) {
            m_ctx.error(field + ".randomString.length", "must be between 1 and 65536");
            return nullptr;
        }
        return makeRandomStringSource(v.random_string().length(), v.random_string().alphabet());
    case v1::Variable::kUuid:
        return makeUuidSource();
    case v1::Variable::kConstant:
        return makeConstantSource(v.constant().value());
    case v1::Variable::SOURCE_NOT_SET:
        break;
    }
    m_ctx.error(field, "variable \"" + v.name() +
                           "\" has no source (csv, increment, randomInt, randomString, uuid or constant)");
    return nullptr;
}

// The iteration data's column named `name` (Postman's {{column}}), if any.
std::optional<VarRef> VariableCompiler::dataColumn(std::string_view name) const
{
    for (std::size_t i = 0; i < m_plan.variables.size(); ++i)
        if (const PlannedVariable& v = m_plan.variables[i]; v.iterationData && v.source)
            if (const int col = v.source->columnIndex(name); col >= 0)
                return VarRef{std::uint16_t(i), std::int16_t(col)};
    return std::nullopt;
}

// Postman's {{$guid}} and its kind: a variable of its own
Resolution VariableCompiler::dynamicOfItsOwn(std::string_view name, ParameterSourcePtr source)
{
    PlannedVariable pv;
    pv.name = std::string(name);
    pv.source = std::move(source);
    pv.used = true;
    m_plan.variables.push_back(std::move(pv));
    Resolution r;
    r.kind = Resolution::Reference;
    r.ref = {std::uint16_t(m_plan.variables.size() - 1), -1};
    return r;
}

// ${shared.KEY}: the run's shared data (a variable named "shared" is itself and its columns instead)
Resolution VariableCompiler::sharedValue(std::string_view name)
{
    Resolution r;
    const std::string_view key = name.substr(7);
    if (key.empty() || key.size() > SharedLimits::kKeyBytes) {
        r.error = "${" + std::string(name) + "} names no key of the run's shared data (1 to " +
                  std::to_string(SharedLimits::kKeyBytes) + " bytes after \"shared.\")";
        return r;
    }
    std::size_t i = 0;
    while (i < m_plan.variables.size() && !(m_plan.variables[i].shared && m_plan.variables[i].name == name))
        ++i;
    if (i == m_plan.variables.size()) {
        PlannedVariable pv;
        pv.name = std::string(name);
        pv.extracted = true;
        pv.shared = true;
        m_plan.variables.push_back(std::move(pv));
    }
    m_plan.variables[i].used = true;
    m_plan.sharedData = true;
    r.kind = Resolution::Reference;
    r.ref = {std::uint16_t(i), -1};
    return r;
}

Resolution VariableCompiler::resolve(std::string_view name)
{
    Resolution r;
    if (name.rfind("shared.", 0) == 0 && std::none_of(m_plan.variables.begin(), m_plan.variables.end(),
                                                      [](const PlannedVariable& v) { return v.name == "shared"; }))
        return sharedValue(name);
    if (name == "$stressTag") { // the run's stress tag, for key prefixes and shadow data (Havok's [stress_tag])
        r.kind = Resolution::Constant;
        r.constant = m_plan.runId;
        return r;
    }
    // newman draws Postman's {{$guid}} and its kind afresh at each use (used twice: two values); a scenario's
    // is drawn once an iteration, the same wherever it is used (as the trace's ids always are)
    if (m_plan.testsVerdict && name.rfind("$traceId", 0) != 0 && name.rfind("$spanId", 0) != 0 &&
        m_plan.variables.size() < kFreshDynamicsUpTo)
        if (ParameterSourcePtr dynamic = dynamicVariable(name))
            return dynamicOfItsOwn(name, std::move(dynamic));
    // a name that is a variable's whole name (a Postman name "api.url") is that variable, else "set.column"
    const bool whole = std::any_of(m_plan.variables.begin(), m_plan.variables.end(),
                                   [&](const PlannedVariable& v) { return v.name == name; });
    const std::size_t dot = whole ? std::string_view::npos : name.find('.');
    const std::string_view base = name.substr(0, dot);
    // an extracted name shadows a variable of that name: it is found first
    std::vector<std::size_t> order(m_plan.variables.size());
    for (std::size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_partition(order.begin(), order.end(), [&](std::size_t i) { return m_plan.variables[i].extracted; });
    bool dataLooked = false;
    for (const std::size_t i : order) {
        auto& v = m_plan.variables[i];
        if (!v.extracted && !std::exchange(dataLooked, true)) // what was extracted, then the data row
            if (const auto column = dataColumn(name)) {
                r.kind = Resolution::Reference;
                r.ref = *column;
                m_plan.variables[column->variable].used = true;
                return r;
            }
        if (v.name != base)
            continue;
        if (v.extracted) {
            if (v.fallback >= 0)
                m_plan.variables[std::size_t(v.fallback)].used = true; // drawn: it is the default
            if (dot != std::string_view::npos) {
                r.error = "${" + std::string(base) + "} is extracted from answers and has no columns: write ${" +
                          std::string(base) + "}";
                return r;
            }
            r.kind = Resolution::Reference;
            r.ref = {std::uint16_t(i), -1};
            v.used = true;
            return r;
        }
        if (v.source->hasColumns()) {
            if (dot == std::string_view::npos) {
                r.error = "variable ${" + std::string(name) + "} is a CSV data set: name a column, e.g. ${" +
                          std::string(name) + ".id}";
                return r;
            }
            const int col = v.source->columnIndex(name.substr(dot + 1));
            if (col < 0) {
                r.error = "unknown column ${" + std::string(name) + "}";
                return r;
            }
            r.kind = Resolution::Reference;
            r.ref = {std::uint16_t(i), std::int16_t(col)};
            v.used = true;
            return r;
        }
        if (dot != std::string_view::npos) {
            r.error = "variable ${" + std::string(base) + "} has no columns: write ${" + std::string(base) + "}";
            return r;
        }
        if (const std::string* c = v.source->constantValue()) {
            r.kind = Resolution::Constant;
            r.constant = *c;
            return r;
        }
        r.kind = Resolution::Reference;
        r.ref = {std::uint16_t(i), -1};
        v.used = true;
        return r;
    }
    if (ParameterSourcePtr dynamic = dot == std::string_view::npos ? dynamicVariable(name) : nullptr)
        return dynamicOfItsOwn(name, std::move(dynamic)); // made at its first use
    if (m_plan.testsVerdict) {                            // newman sends what it cannot resolve as written
        r.kind = Resolution::Constant;
        r.constant = "{{" + std::string(name) + "}}";
        if (std::find(m_plan.literalNames.begin(), m_plan.literalNames.end(), name) == m_plan.literalNames.end())
            m_plan.literalNames.emplace_back(name);
        return r;
    }
    r.error = "unknown variable ${" + std::string(name) + "}";
    return r;
}

} // namespace stampede
