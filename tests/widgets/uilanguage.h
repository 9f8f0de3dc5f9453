#pragma once
// The languages a widget test is run in (English, and Chinese to see that
// its strings fit), and the translation installed for one of them while a
// UiLanguage lives.
#include <QApplication>
#include <QTest>
#include <QTranslator>

namespace uitest {

// The data rows: "language" is "" (English) or "zh_CN".
inline void addLanguageRows()
{
    QTest::addColumn<QString>("language");
    QTest::newRow("en") << QString();
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN");
}

class UiLanguage
{
public:
    UiLanguage() = default;
    UiLanguage(const UiLanguage&) = delete;
    UiLanguage& operator=(const UiLanguage&) = delete;
    ~UiLanguage()
    {
        if (m_installed)
            QApplication::removeTranslator(&m_translator);
    }
    // Installs `language`'s translation from the resources ("": English, nothing
    // to install); false when it cannot be loaded.
    bool install(const QString& language)
    {
        if (language.isEmpty())
            return true;
        if (!m_translator.load(QStringLiteral(":/i18n/stampede_%1.qm").arg(language)))
            return false;
        m_installed = QApplication::installTranslator(&m_translator);
        return m_installed;
    }

private:
    QTranslator m_translator;
    bool m_installed = false;
};

} // namespace uitest
