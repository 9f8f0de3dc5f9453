#include "jsontext.h"

#include <QJsonDocument>
#include <QJsonParseError>

QString indentedJson(const QByteArray& json)
{
    QJsonParseError e;
    QJsonDocument::fromJson(json, &e); // only to know it is JSON: its order is not kept
    if (e.error != QJsonParseError::NoError)
        return {};
    QByteArray out;
    out.reserve(json.size() * 2);
    int depth = 0;
    const auto newline = [&] {
        out += '\n';
        out += QByteArray(depth * 2, ' ');
    };
    for (qsizetype i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (c == '"') { // a string, escapes and all, as it is
            const qsizetype start = i++;
            while (i < json.size() && json[i] != '"')
                i += json[i] == '\\' ? 2 : 1;
            out += json.mid(start, i - start + 1);
            continue;
        }
        switch (c) {
        case ' ':
        case '\t':
        case '\n':
        case '\r':
            break;
        case '{':
        case '[': {
            qsizetype next = i + 1;
            while (next < json.size() && QByteArrayView(" \t\r\n").contains(json[next]))
                ++next;
            if (next < json.size() && (json[next] == '}' || json[next] == ']')) {
                out += c;
                out += json[next];
                i = next;
                break;
            }
            out += c;
            ++depth;
            newline();
            break;
        }
        case '}':
        case ']':
            --depth;
            newline();
            out += c;
            break;
        case ',':
            out += c;
            newline();
            break;
        case ':':
            out += ": ";
            break;
        default:
            out += c;
        }
    }
    return QString::fromUtf8(out);
}
