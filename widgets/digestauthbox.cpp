#include "digestauthbox.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QLineEdit>

DigestAuthBox::DigestAuthBox(QWidget* parent) : QGroupBox(tr("Digest"), parent)
{
    setObjectName(QStringLiteral("digest"));
    auto* form = new QFormLayout(this);
    const auto line = [&](const char* field, const QString& label, const QString& tip, bool secret,
                          const QString& placeholder) {
        auto* e = new QLineEdit;
        e->setObjectName(QStringLiteral("digest_") + QLatin1String(field));
        e->setPlaceholderText(placeholder);
        if (secret)
            e->setEchoMode(QLineEdit::Password);
        e->setToolTip(tip);
        m_fields.insert(QLatin1String(field), e);
        connect(e, &QLineEdit::textEdited, this, &DigestAuthBox::changed);
        form->addRow(label, e);
    };
    line("username", tr("User:"), QString(), false, tr("value, or ${variable}"));
    line("password", tr("Password:"), QString(), true, tr("value, or ${variable}"));
    const QString serverTip = tr("Empty: the value of the server's challenge (its 401). Written: this value, "
                                 "whatever the server says, as Postman does");
    m_algorithm = new QComboBox;
    m_algorithm->setObjectName(QStringLiteral("digest_algorithm"));
    m_algorithm->addItems({QStringLiteral("MD5"), QStringLiteral("MD5-sess"), QStringLiteral("SHA-256"),
                           QStringLiteral("SHA-256-sess"), QStringLiteral("SHA-512-256"),
                           QStringLiteral("SHA-512-256-sess")});
    m_algorithm->setToolTip(tr("Used when realm and nonce are written; otherwise the server's challenge names it"));
    form->addRow(tr("Algorithm:"), m_algorithm);
    line("realm", tr("Realm:"), serverTip, false, tr("the server's"));
    line("nonce", tr("Nonce:"), serverTip, false, tr("the server's"));
    m_qop = new QComboBox;
    m_qop->setObjectName(QStringLiteral("digest_qop"));
    m_qop->addItems({tr("the server's"), QStringLiteral("auth"), QStringLiteral("auth-int")});
    m_qop->setToolTip(serverTip);
    form->addRow(tr("qop:"), m_qop);
    line("nonceCount", tr("Nonce count:"), tr("Hex, as 00000001. Empty: 1 for each new nonce, then counting up"), false,
         tr("automatic"));
    line("clientNonce", tr("Client nonce:"), tr("Empty: a fresh random one for each challenge"), false,
         tr("automatic"));
    line("opaque", tr("Opaque:"), serverTip, false, tr("the server's"));
    m_noRetry = new QCheckBox(tr("Do not send again on the server's challenge"));
    m_noRetry->setObjectName(QStringLiteral("digest_disableRetryRequest"));
    m_noRetry->setToolTip(tr("Postman's \"disable retrying the request\": the 401 is then the request's answer"));
    form->addRow(QString(), m_noRetry);
    connect(m_algorithm, &QComboBox::currentIndexChanged, this, &DigestAuthBox::changed);
    connect(m_qop, &QComboBox::currentIndexChanged, this, &DigestAuthBox::changed);
    connect(m_noRetry, &QCheckBox::toggled, this, &DigestAuthBox::changed);
}

void DigestAuthBox::setHelper(const QJsonObject& helper)
{
    const QSignalBlocker blocker(this);
    m_helper = helper;
    for (auto it = m_fields.begin(); it != m_fields.end(); ++it)
        it.value()->setText(helper.value(it.key()).toString());
    m_algorithm->setCurrentIndex(
        std::max(0, m_algorithm->findText(helper.value(QStringLiteral("algorithm")).toString(), Qt::MatchFixedString)));
    m_qop->setCurrentIndex(std::max(0, m_qop->findText(helper.value(QStringLiteral("qop")).toString())));
    const QJsonValue off = helper.value(QStringLiteral("disableRetryRequest"));
    m_noRetry->setChecked(off.isBool() ? off.toBool() : off.toString() == QLatin1String("true"));
}

QJsonObject DigestAuthBox::helper() const
{
    QJsonObject o = m_helper; // what it does not show is kept
    o[QStringLiteral("type")] = QStringLiteral("digest");
    for (auto it = m_fields.begin(); it != m_fields.end(); ++it) {
        if (it.value()->text().isEmpty())
            o.remove(it.key());
        else
            o[it.key()] = it.value()->text();
    }
    o[QStringLiteral("algorithm")] = m_algorithm->currentText();
    if (m_qop->currentIndex() == 0)
        o.remove(QStringLiteral("qop"));
    else
        o[QStringLiteral("qop")] = m_qop->currentText();
    if (m_noRetry->isChecked())
        o[QStringLiteral("disableRetryRequest")] = true;
    else
        o.remove(QStringLiteral("disableRetryRequest"));
    return o;
}

QString DigestAuthBox::allText() const
{
    QString all;
    for (const QLineEdit* e : m_fields)
        all += e->text() + QLatin1Char('\n');
    return all;
}
