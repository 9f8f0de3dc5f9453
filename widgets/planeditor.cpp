#include "planeditor.h"

#include "enginetext.h"

#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSplitter>
#include <QStackedWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

// The plan's own fields its "Plan" part edits; the rest of that editor's JSON (a load, steps) is not the plan's.
const char* const kPlanOwn[] = {"variables", "thresholds", "breaker", "schedule", "stressTag"};

double startAfterSeconds(const QJsonObject& scenario)
{
    QString text = scenario.value(QStringLiteral("startAfter")).toString();
    if (text.endsWith(QLatin1Char('s')))
        text.chop(1);
    return text.toDouble();
}

} // namespace

PlanEditor::PlanEditor(QWidget* parent) : QWidget(parent)
{
    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("planName"));
    m_run = new QPushButton(tr("Run the plan"));
    m_run->setObjectName(QStringLiteral("runButton"));
    m_run->setToolTip(tr("Run every scenario of the plan side by side, with its setup before and its teardown after"));
    m_list = new QListWidget;
    m_list->setObjectName(QStringLiteral("planParts"));
    m_list->setToolTip(tr("The plan's parts: its own defaults and thresholds, the setup (run once before the load), "
                          "each scenario (with its own load), the teardown (run once after it)"));
    m_stack = new QStackedWidget;
    m_problems = new QLabel;
    m_problems->setObjectName(QStringLiteral("planProblems"));
    m_problems->setWordWrap(true);
    m_problems->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* add = new QPushButton(tr("Add scenario"));
    add->setObjectName(QStringLiteral("addScenario"));
    auto* remove = new QPushButton(tr("Remove"));
    remove->setToolTip(tr("Remove the chosen scenario from the plan"));
    auto* up = new QPushButton(tr("Up"));
    auto* down = new QPushButton(tr("Down"));
    const auto chosenScenario = [this] { return m_list->currentRow() - 2; }; // after "Plan" and "Setup"
    connect(add, &QPushButton::clicked, this, &PlanEditor::addScenario);
    connect(remove, &QPushButton::clicked, this, [this, chosenScenario] { removeScenario(chosenScenario()); });
    connect(up, &QPushButton::clicked, this, [this, chosenScenario] { moveScenario(chosenScenario(), -1); });
    connect(down, &QPushButton::clicked, this, [this, chosenScenario] { moveScenario(chosenScenario(), 1); });
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) {
        if (row >= 0 && row < m_stack->count())
            m_stack->setCurrentIndex(row);
    });
    connect(m_name, &QLineEdit::textEdited, this, &PlanEditor::edited);
    connect(m_name, &QLineEdit::editingFinished, this, [this] {
        if (m_name->isModified()) {
            m_name->setModified(false);
            emit renamed(m_name->text());
        }
    });
    connect(m_run, &QPushButton::clicked, this, [this] { Q_EMIT runRequested(json()); });

    auto* header = new QHBoxLayout;
    header->addWidget(new QLabel(tr("Plan:")));
    header->addWidget(m_name, 1);
    header->addWidget(m_run);
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_list, 1);
    auto* moves = new QHBoxLayout;
    moves->addWidget(up);
    moves->addWidget(down);
    leftLayout->addWidget(add);
    leftLayout->addWidget(remove);
    leftLayout->addLayout(moves);
    auto* split = new QSplitter;
    split->addWidget(left);
    split->addWidget(m_stack);
    split->setStretchFactor(1, 1);
    split->setSizes({200, 1000});
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(header);
    layout->addWidget(m_problems);
    layout->addWidget(split, 1);
}

void PlanEditor::setEngines(const QString& label, const QString& toolTip)
{
    m_run->setText(label);
    m_run->setToolTip(toolTip);
}

ScenarioEditor* PlanEditor::makeEditor(ScenarioEditor::PlanPart part, std::function<QByteArray()> asItRuns)
{
    auto* e = new ScenarioEditor;
    if (m_setup)
        m_setup(e);
    e->asPlanPart(part, [asItRuns = std::move(asItRuns)](const QByteArray&) { return asItRuns(); });
    connect(e, &ScenarioEditor::changed, this, &PlanEditor::edited);
    return e;
}

PlanEditor::ScenarioPart PlanEditor::makeScenario(const QJsonObject& scenario)
{
    ScenarioPart p;
    p.page = new QWidget;
    auto* form = new QFormLayout;
    p.startAfter = new QDoubleSpinBox;
    p.startAfter->setObjectName(QStringLiteral("startAfter"));
    p.startAfter->setRange(0, 30 * 24 * 3600);
    p.startAfter->setDecimals(1);
    p.startAfter->setSuffix(tr(" s"));
    p.startAfter->setToolTip(tr("When this scenario's load starts, after the run's start"));
    p.startAfter->setValue(startAfterSeconds(scenario));
    form->addRow(tr("Starts after:"), p.startAfter);
    // checked as it compiles in the plan: the plan's defaults under its own fields
    ScenarioEditor* e = nullptr;
    e = makeEditor(ScenarioEditor::PlanPart::Scenario, [this, page = p.page] {
        for (int i = 0; i < m_scenarios.size(); ++i)
            if (m_scenarios[i].page == page)
                return ScenarioCheck::planPart(json(), i);
        return json();
    });
    p.editor = e;
    QJsonObject own = scenario;
    own.remove(QStringLiteral("startAfter"));
    e->setJson(QJsonDocument(own).toJson(QJsonDocument::Compact));
    auto* layout = new QVBoxLayout(p.page);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(form);
    layout->addWidget(e, 1);
    connect(p.startAfter, &QDoubleSpinBox::valueChanged, this, &PlanEditor::edited);
    connect(e, &ScenarioEditor::changed, this, &PlanEditor::rebuildList); // its name, in the list
    return p;
}

void PlanEditor::setJson(const QByteArray& payload)
{
    m_loading = true;
    const QJsonObject plan = QJsonDocument::fromJson(payload).object();
    m_rest = plan;
    m_name->setText(plan.value(QStringLiteral("name")).toString());
    while (m_stack->count()) {
        QWidget* w = m_stack->widget(0);
        m_stack->removeWidget(w);
        w->deleteLater();
    }
    m_scenarios.clear();
    // the plan's own fields: an object of them alone
    QJsonObject own;
    own[QStringLiteral("name")] = plan.value(QStringLiteral("name"));
    for (const char* key : kPlanOwn)
        if (plan.contains(QLatin1String(key)))
            own[QLatin1String(key)] = plan.value(QLatin1String(key));
    m_plan = makeEditor(ScenarioEditor::PlanPart::Plan, [this] { return json(); });
    // the plan's own checks cover the whole: its faults, named by field, shown above the parts as they land
    connect(m_plan, &ScenarioEditor::checked, this, [this, e = m_plan] {
        const QStringList mine = e->shownProblems();
        m_problems->setText(mine.join(QLatin1Char('\n')));
        m_problems->setVisible(!mine.isEmpty());
    });
    m_plan->setJson(QJsonDocument(own).toJson(QJsonDocument::Compact));
    m_stack->addWidget(m_plan);
    const auto phase = [&](const char* key, bool teardown) {
        ScenarioEditor* e = makeEditor(ScenarioEditor::PlanPart::Phase, [this, teardown] {
            const QByteArray plan = json();
            if (QJsonDocument::fromJson(plan)
                    .object()
                    .value(QLatin1String(teardown ? "teardown" : "setup"))
                    .toArray()
                    .isEmpty())
                return QByteArray(); // none: nothing to check
            return ScenarioCheck::planPart(plan, teardown ? ScenarioCheck::PlanTeardown : ScenarioCheck::PlanSetup);
        });
        QJsonObject steps;
        steps[QStringLiteral("steps")] = plan.value(QLatin1String(key)).toArray();
        e->setJson(QJsonDocument(steps).toJson(QJsonDocument::Compact));
        return e;
    };
    m_setupSteps = phase("setup", false);
    m_stack->addWidget(m_setupSteps);
    for (const QJsonValue& s : plan.value(QStringLiteral("scenarios")).toArray()) {
        m_scenarios.append(makeScenario(s.toObject()));
        m_stack->addWidget(m_scenarios.back().page);
    }
    m_teardownSteps = phase("teardown", true);
    m_stack->addWidget(m_teardownSteps);
    m_loading = false;
    rebuildList();
    m_list->setCurrentRow(m_scenarios.isEmpty() ? 0 : 2);
    recheckAll();
}

QByteArray PlanEditor::json() const
{
    QJsonObject plan = m_rest; // what no part shows, as it came
    plan[QStringLiteral("name")] = m_name->text();
    if (m_plan) {
        const QJsonObject own = QJsonDocument::fromJson(m_plan->json()).object();
        for (const char* key : kPlanOwn) {
            const QJsonValue v = own.value(QLatin1String(key));
            const bool empty = v.isUndefined() || (v.isArray() && v.toArray().isEmpty()) ||
                               (v.isObject() && v.toObject().isEmpty()) || (v.isString() && v.toString().isEmpty());
            if (empty)
                plan.remove(QLatin1String(key));
            else
                plan[QLatin1String(key)] = v;
        }
    }
    const auto steps = [](const ScenarioEditor* e) {
        return e ? QJsonDocument::fromJson(e->json()).object().value(QStringLiteral("steps")).toArray() : QJsonArray();
    };
    for (const auto& [key, editor] :
         {std::pair<const char*, const ScenarioEditor*>{"setup", m_setupSteps}, {"teardown", m_teardownSteps}}) {
        const QJsonArray s = steps(editor);
        if (s.isEmpty())
            plan.remove(QLatin1String(key));
        else
            plan[QLatin1String(key)] = s;
    }
    QJsonArray scenarios;
    for (const ScenarioPart& p : m_scenarios) {
        QJsonObject s = QJsonDocument::fromJson(p.editor->json()).object();
        s.remove(QStringLiteral("schedule")); // the plan's
        if (p.startAfter->value() > 0)
            s[QStringLiteral("startAfter")] =
                QString(QString::number(p.startAfter->value(), 'g', 9) + QLatin1Char('s'));
        scenarios.append(s);
    }
    plan[QStringLiteral("scenarios")] = scenarios;
    return QJsonDocument(plan).toJson(QJsonDocument::Compact);
}

QStringList PlanEditor::parts() const
{
    QStringList out{tr("Plan: defaults and thresholds"), tr("Setup (once, before the load)")};
    for (const ScenarioPart& p : m_scenarios) {
        const QString name =
            QJsonDocument::fromJson(p.editor->json()).object().value(QStringLiteral("name")).toString();
        out << (name.isEmpty() ? tr("(a scenario without a name)") : name);
    }
    out << tr("Teardown (once, after the load)");
    return out;
}

void PlanEditor::rebuildList()
{
    if (m_loading)
        return;
    const int row = m_list->currentRow();
    const QStringList names = parts();
    const QSignalBlocker block(m_list);
    m_list->clear();
    m_list->addItems(names);
    m_list->setCurrentRow(std::clamp(row, 0, int(names.size()) - 1));
}

void PlanEditor::showPart(int i)
{
    m_list->setCurrentRow(i);
    m_stack->setCurrentIndex(i);
}

ScenarioEditor* PlanEditor::partEditor(int i) const
{
    if (i == 0)
        return m_plan;
    if (i == 1)
        return m_setupSteps;
    if (i - 2 < m_scenarios.size())
        return m_scenarios[i - 2].editor;
    return m_teardownSteps;
}

void PlanEditor::addScenario()
{
    QJsonObject s;
    s[QStringLiteral("name")] = tr("scenario %1").arg(m_scenarios.size() + 1);
    s[QStringLiteral("steps")] = QJsonArray();
    QJsonObject open;
    open[QStringLiteral("rate")] = 10;
    QJsonObject load;
    load[QStringLiteral("open")] = open;
    s[QStringLiteral("load")] = load;
    s[QStringLiteral("duration")] = QStringLiteral("60s");
    QJsonObject plan = QJsonDocument::fromJson(json()).object();
    QJsonArray list = plan.value(QStringLiteral("scenarios")).toArray();
    list.append(s);
    plan[QStringLiteral("scenarios")] = list;
    setJson(QJsonDocument(plan).toJson(QJsonDocument::Compact));
    showPart(int(m_scenarios.size()) + 1);
    edited();
}

void PlanEditor::removeScenario(int scenario)
{
    if (scenario < 0 || scenario >= m_scenarios.size() || m_scenarios.size() == 1)
        return; // a plan keeps one scenario at least
    QJsonObject plan = QJsonDocument::fromJson(json()).object();
    QJsonArray list = plan.value(QStringLiteral("scenarios")).toArray();
    list.removeAt(scenario);
    plan[QStringLiteral("scenarios")] = list;
    setJson(QJsonDocument(plan).toJson(QJsonDocument::Compact));
    showPart(std::min(scenario, int(m_scenarios.size()) - 1) + 2);
    edited();
}

void PlanEditor::moveScenario(int scenario, int by)
{
    const int to = scenario + by;
    if (scenario < 0 || scenario >= m_scenarios.size() || to < 0 || to >= m_scenarios.size())
        return;
    QJsonObject plan = QJsonDocument::fromJson(json()).object();
    QJsonArray list = plan.value(QStringLiteral("scenarios")).toArray();
    const QJsonValue moved = list.at(scenario);
    list.removeAt(scenario);
    list.insert(to, moved);
    plan[QStringLiteral("scenarios")] = list;
    setJson(QJsonDocument(plan).toJson(QJsonDocument::Compact));
    showPart(to + 2);
    edited();
}

QStringList PlanEditor::problems() const
{
    QStringList out;
    const QStringList names = parts();
    for (int i = 0; i < names.size(); ++i)
        if (const ScenarioEditor* e = partEditor(i))
            for (const QString& p : e->problems())
                out << names[i] + QStringLiteral(": ") + p;
    return out;
}

QString PlanEditor::name() const
{
    return m_name->text();
}

void PlanEditor::setName(const QString& name)
{
    m_name->setText(name); // saved with the next edit; a run takes the tree's name meanwhile
}

void PlanEditor::edited()
{
    if (m_loading)
        return;
    Q_EMIT changed(json());
    // a part's edit can change what the others compile as (a plan's variable, a setup's value)
    QTimer::singleShot(0, this, &PlanEditor::recheckAll);
}

void PlanEditor::recheckAll()
{
    for (int i = 0; i < m_stack->count(); ++i)
        if (ScenarioEditor* e = partEditor(i))
            e->recheck(); // the plan's own editor's faults go above the parts when its check lands
}
