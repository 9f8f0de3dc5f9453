#pragma once
// The request editor's Digest authentication (Postman's digest helper): the
// user and password, and the challenge's values a user may write instead of
// the server's (realm, nonce, algorithm, qop, nonce count, client nonce,
// opaque), each may hold ${variable}. Stored by Postman's names, so that a
// collection exports back as it came; fields it does not show are kept.
#include <QGroupBox>
#include <QHash>
#include <QJsonObject>

class QCheckBox;
class QComboBox;
class QLineEdit;

class DigestAuthBox : public QGroupBox
{
    Q_OBJECT
public:
    explicit DigestAuthBox(QWidget* parent = nullptr);
    // Shows a stored helper ({"type": "digest", "username": ...}; empty: a new one).
    void setHelper(const QJsonObject& helper);
    // The helper as edited, with what it does not show kept.
    QJsonObject helper() const;
    // The fields' text, for the variable hints.
    QString allText() const;

Q_SIGNALS:
    void changed();

private:
    QJsonObject m_helper;
    QHash<QString, QLineEdit*> m_fields;
    QComboBox* m_algorithm = nullptr;
    QComboBox* m_qop = nullptr;
    QCheckBox* m_noRetry = nullptr;
};
