#include "enginesdialog.h"

#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

namespace {
QWidget* withBrowse(QLineEdit* edit, const QString& caption, QWidget* parent)
{
    auto* box = new QWidget;
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    auto* browse = new QPushButton(QObject::tr("Browse…"));
    row->addWidget(edit, 1);
    row->addWidget(browse);
    QObject::connect(browse, &QPushButton::clicked, parent, [edit, caption, parent] {
        const QString path = QFileDialog::getOpenFileName(parent, caption, edit->text());
        if (!path.isEmpty())
            edit->setText(path);
    });
    return box;
}
} // namespace

EnginesDialog::EnginesDialog(const EngineSettings& s, QWidget* parent) : QDialog(parent)
{
    setWindowTitle(tr("Engines"));
    m_local = new QRadioButton(tr("Local pool: engines started on this machine for each run"));
    m_remote = new QRadioButton(tr("Remote agents:"));
    (s.remote ? m_remote : m_local)->setChecked(true);
    m_localEngines = new QSpinBox;
    m_localEngines->setRange(0, 256);
    m_localEngines->setSpecialValueText(tr("fit to the CPUs"));
    m_localEngines->setValue(s.localEngines);
    m_localEngines->setToolTip(tr("How many engine processes to start; each takes a share of the load. By default, "
                                  "one per NUMA node, its threads as many as the CPUs this process may use (its "
                                  "affinity and CPU quota)"));

    m_agents = new AgentListModel(this);
    m_agents->setAgents(s.agents);
    m_table = new QTableView;
    m_table->setModel(m_agents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->resizeSection(0, 220);
    m_table->verticalHeader()->hide();
    auto* add = new QPushButton(tr("Add"));
    auto* remove = new QPushButton(tr("Remove"));
    auto* check = new QPushButton(tr("Check"));
    check->setToolTip(tr("Say hello to every agent: reachable, same protocol version, not busy"));
    m_tokenFile = new QLineEdit(s.tokenFile);
    m_tokenFile->setPlaceholderText(tr("file holding the agents' token"));
    m_tokenFile->setToolTip(tr("The agents were started with --token-file; give the same token here. "
                               "The project keeps only this path, never the token."));
    m_caFile = new QLineEdit(s.caFile);
    m_caFile->setPlaceholderText(tr("none: plain connections (loopback only)"));
    m_caFile->setToolTip(tr("The CA that signed the agents' TLS certificates; set it to connect with TLS"));
    m_prometheus = new QLineEdit(s.prometheus);
    m_prometheus->setPlaceholderText(tr("off (e.g. 127.0.0.1:9465)"));
    m_prometheus->setToolTip(tr("While a run goes on, serve its figures at http://ADDRESS/metrics for an existing "
                                "Prometheus to scrape: stampede_requests_total{step}, stampede_errors_total{class}, "
                                "the latency histogram stampede_latency_seconds…"));
    m_jsonl = new QLineEdit(s.jsonl);
    m_jsonl->setPlaceholderText(tr("off"));
    m_jsonl->setToolTip(tr("Write every second of each run as a line of JSON (as k6's JSON output). It is written "
                           "to FILE.part while the run goes on and renamed FILE at its end."));
    m_maxErrorRate = new QLineEdit(s.maxErrorRate);
    m_maxErrorRate->setObjectName(QStringLiteral("maxErrorRate"));
    m_maxErrorRate->setPlaceholderText(tr("off (e.g. 1%)"));
    m_maxErrorRate->setToolTip(tr("Judge every run of this project by error_rate < this too, unless the scenario's "
                                  "thresholds judge the error rate: a run whose requests mostly failed cannot pass "
                                  "on its latency thresholds alone"));
    m_remoteWrite = new QLineEdit(s.remoteWrite);
    m_remoteWrite->setObjectName(QStringLiteral("remoteWrite"));
    m_remoteWrite->setPlaceholderText(tr("off (e.g. http://127.0.0.1:9090/api/v1/write)"));
    m_remoteWrite->setToolTip(tr("Push every second of each run to a Prometheus remote write receiver (Prometheus "
                                 "with --web.enable-remote-write-receiver, or another receiver of remote write 1.0)"));
    m_message = new QLabel;
    m_message->setWordWrap(true);

    auto* listButtons = new QVBoxLayout;
    listButtons->addWidget(add);
    listButtons->addWidget(remove);
    listButtons->addWidget(check);
    listButtons->addStretch(1);
    auto* list = new QHBoxLayout;
    list->addWidget(m_table, 1);
    list->addLayout(listButtons);
    auto* form = new QFormLayout;
    form->addRow(tr("Token file:"), withBrowse(m_tokenFile, tr("Token file"), this));
    form->addRow(tr("TLS CA file:"), withBrowse(m_caFile, tr("CA certificate"), this));
    auto* localRow = new QHBoxLayout;
    localRow->addSpacing(24);
    localRow->addWidget(new QLabel(tr("Engines:")));
    localRow->addWidget(m_localEngines);
    localRow->addStretch(1);
    auto* outputs = new QGroupBox(tr("Live outputs of every run"));
    auto* outputForm = new QFormLayout(outputs);
    outputForm->addRow(tr("Prometheus endpoint:"), m_prometheus);
    auto* jsonlRow = new QWidget;
    auto* jsonlLayout = new QHBoxLayout(jsonlRow);
    jsonlLayout->setContentsMargins(0, 0, 0, 0);
    auto* saveAs = new QPushButton(tr("Browse…"));
    jsonlLayout->addWidget(m_jsonl, 1);
    jsonlLayout->addWidget(saveAs);
    connect(saveAs, &QPushButton::clicked, this, [this] {
        const QString path =
            QFileDialog::getSaveFileName(this, tr("JSON lines file"), m_jsonl->text(), tr("JSON lines (*.jsonl)"));
        if (!path.isEmpty())
            m_jsonl->setText(path);
    });
    outputForm->addRow(tr("JSON lines file:"), jsonlRow);
    outputForm->addRow(tr("Remote write URL:"), m_remoteWrite);
    auto* verdict = new QGroupBox(tr("Every run's verdict"));
    auto* verdictForm = new QFormLayout(verdict);
    verdictForm->addRow(tr("Error rate at most:"), m_maxErrorRate);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_local);
    layout->addLayout(localRow);
    layout->addWidget(m_remote);
    layout->addLayout(list, 1);
    layout->addLayout(form);
    layout->addWidget(outputs);
    layout->addWidget(verdict);
    layout->addWidget(m_message);
    layout->addWidget(buttons);
    resize(620, 500);

    connect(add, &QPushButton::clicked, this, [this] {
        m_agents->addAgent(QStringLiteral("127.0.0.1:7700"));
        m_table->edit(m_agents->index(m_agents->rowCount() - 1, 0));
    });
    connect(remove, &QPushButton::clicked, this, [this] { m_agents->removeAgent(m_table->currentIndex().row()); });
    connect(check, &QPushButton::clicked, this, &EnginesDialog::checkAgents);
    connect(m_agents, &AgentListModel::checked, this, [this] {
        int ready = 0;
        for (int r = 0; r < m_agents->rowCount(); ++r)
            ready += m_agents->ready(r);
        m_message->setText(tr("%1 of %2 agents ready.").arg(ready).arg(m_agents->rowCount()));
    });
    connect(m_local, &QRadioButton::toggled, this, &EnginesDialog::updateEnabled);
    connect(buttons, &QDialogButtonBox::accepted, this, &EnginesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &EnginesDialog::reject);
    updateEnabled();
}

void EnginesDialog::updateEnabled()
{
    const bool remote = m_remote->isChecked();
    m_localEngines->setEnabled(!remote);
    m_table->setEnabled(remote);
    m_tokenFile->setEnabled(remote);
    m_caFile->setEnabled(remote);
}

EngineSettings EnginesDialog::settings() const
{
    EngineSettings s;
    s.remote = m_remote->isChecked();
    s.localEngines = m_localEngines->value();
    s.agents = m_agents->agents();
    s.tokenFile = m_tokenFile->text().trimmed();
    s.caFile = m_caFile->text().trimmed();
    s.prometheus = m_prometheus->text().trimmed();
    s.jsonl = m_jsonl->text().trimmed();
    s.remoteWrite = m_remoteWrite->text().trimmed();
    s.maxErrorRate = m_maxErrorRate->text().trimmed();
    return s;
}

void EnginesDialog::checkAgents()
{
    const EngineSettings s = settings();
    QString token, error;
    if (!s.readToken(token, error)) {
        m_message->setText(error);
        return;
    }
    m_message->setText(tr("Checking %n agent(s)…", nullptr, int(s.agents.size())));
    m_agents->check(token, s.caFile);
}

void EnginesDialog::accept()
{
    const EngineSettings s = settings();
    if (const QString problem = s.outputsProblem(m_projectPath); !problem.isEmpty()) {
        m_message->setText(problem);
        return;
    }
    if (s.remote) {
        QString error;
        if (s.agents.isEmpty()) {
            m_message->setText(tr("List at least one agent, or run on the local pool."));
            return;
        }
        for (const auto& a : s.agents) {
            if (!validAgentAddress(a, error)) {
                m_message->setText(error);
                return;
            }
        }
        QString token;
        if (!s.readToken(token, error)) {
            m_message->setText(error);
            return;
        }
    }
    QDialog::accept();
}
