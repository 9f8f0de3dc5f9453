#include "capacitydialog.h"

#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

CapacityDialog::CapacityDialog(QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Find capacity"));
    auto* intro = new QLabel(tr("Raises the open-model rate level by level (×growth) until a level breaks an SLO, "
                                "then narrows down between the last good and the first bad rate until they are "
                                "within 10 %. Each level's first second is not judged. The scenario's breaker "
                                "stop rules still apply."));
    intro->setWordWrap(true);
    m_slos = new QPlainTextEdit(QStringLiteral("p99 < 500ms\nerror_rate < 1%"));
    m_slos->setObjectName(QStringLiteral("slos"));
    m_slos->setToolTip(tr("One condition per line, written as a threshold: p99 < 50ms, error_rate < 1%, "
                          "checks > 99%, login: p95 < 80ms, server:db_cpu < 80"));
    m_slos->setMaximumHeight(90);
    auto rate = [](double value, const char* name) {
        auto* box = new QDoubleSpinBox;
        box->setObjectName(QString::fromLatin1(name));
        box->setRange(0.001, stampede::kCapacityMaxRate);
        box->setDecimals(3);
        box->setValue(value);
        box->setSuffix(QObject::tr(" /s"));
        return box;
    };
    m_start = rate(100, "start");
    m_start->setToolTip(tr("The first level's rate (iterations per second; requests per second for one step)"));
    m_max = rate(100000, "max");
    m_max->setToolTip(tr("The search never offers more than this"));
    m_step = new QSpinBox;
    m_step->setObjectName(QStringLiteral("stepSeconds"));
    m_step->setRange(int(stampede::kCapacityMinStepSeconds), int(stampede::kCapacityMaxStepSeconds));
    m_step->setValue(10);
    m_step->setSuffix(tr(" s"));
    m_step->setToolTip(tr("How long each level holds; its first second (the change-over) is not judged"));
    m_growth = new QDoubleSpinBox;
    m_growth->setObjectName(QStringLiteral("growth"));
    m_growth->setRange(stampede::kCapacityMinGrowth, stampede::kCapacityMaxGrowth);
    m_growth->setValue(4);
    m_growth->setPrefix(QStringLiteral("× "));
    m_growth->setToolTip(tr("Each level before the first bad one is this many times the last: 2 overshoots the "
                            "limit less and takes more levels"));
    m_problem = new QLabel;
    m_problem->setObjectName(QStringLiteral("problem"));
    m_problem->setWordWrap(true);
    m_problem->setStyleSheet(QStringLiteral("color: #c0392b"));
    auto* form = new QFormLayout;
    form->addRow(tr("SLOs:"), m_slos);
    form->addRow(tr("Start rate:"), m_start);
    form->addRow(tr("Highest rate:"), m_max);
    form->addRow(tr("Each level:"), m_step);
    form->addRow(tr("Growth:"), m_growth);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_ok = buttons->button(QDialogButtonBox::Ok);
    m_ok->setText(tr("Find capacity"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro);
    layout->addLayout(form);
    layout->addWidget(m_problem);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_slos, &QPlainTextEdit::textChanged, this, &CapacityDialog::check);
    for (QDoubleSpinBox* box : {m_start, m_max, m_growth})
        connect(box, &QDoubleSpinBox::valueChanged, this, &CapacityDialog::check);
    connect(m_step, &QSpinBox::valueChanged, this, &CapacityDialog::check);
    check();
}

void CapacityDialog::setSlos(const QString& lines)
{
    m_slos->setPlainText(lines);
}

QString CapacityDialog::problem() const
{
    return m_problem->text();
}

void CapacityDialog::check()
{
    stampede::CapacityOptions o;
    const QString problem = RunSession::capacityOptions(m_slos->toPlainText(), m_start->value(), m_max->value(),
                                                        m_step->value(), m_growth->value(), o);
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    m_ok->setEnabled(problem.isEmpty());
    if (problem.isEmpty())
        m_options = o;
}
