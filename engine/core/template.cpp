#include "template.h"

namespace stampede {

bool Template::compile(std::string_view text, const Resolver& resolve, std::string& error)
{
    m_literals.assign(1, std::string());
    m_refs.clear();
    m_fields.clear();
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t open = text.find("${", pos);
        if (open == std::string_view::npos) {
            m_literals.back().append(text.substr(pos));
            break;
        }
        m_literals.back().append(text.substr(pos, open - pos));
        const std::size_t close = text.find('}', open + 2);
        if (close == std::string_view::npos) {
            error = "unclosed ${ at offset " + std::to_string(open);
            return false;
        }
        const std::string_view name = text.substr(open + 2, close - open - 2);
        if (name.empty()) {
            error = "empty variable name ${} at offset " + std::to_string(open);
            return false;
        }
        Resolution r = resolve(name);
        switch (r.kind) {
        case Resolution::Unknown:
            error = r.error.empty() ? "unknown variable ${" + std::string(name) + "}" : r.error;
            return false;
        case Resolution::Constant:
            m_literals.back().append(r.constant);
            break;
        case Resolution::Reference:
            m_refs.push_back(r.ref);
            m_fields.push_back(WireField::Body);
            m_literals.emplace_back();
            break;
        }
        pos = close + 1;
    }
    return true;
}

void Template::append(const Template& other)
{
    m_literals.back().append(other.m_literals.front());
    for (std::size_t i = 0; i < other.m_refs.size(); ++i) {
        m_refs.push_back(other.m_refs[i]);
        m_fields.push_back(other.m_fields[i]);
        m_literals.push_back(other.m_literals[i + 1]);
    }
}

bool Template::setField(WireField field, std::string& error)
{
    for (std::string& literal : m_literals) {
        if (std::string fault = fieldFault(literal, field); !fault.empty()) {
            error = std::move(fault);
            return false;
        }
        if (field == WireField::Target || field == WireField::FormComponent) {
            std::string encoded;
            appendField(encoded, literal, field);
            literal = std::move(encoded);
        }
    }
    m_fields.assign(m_refs.size(), field);
    return true;
}

std::vector<std::string> Template::names(std::string_view text)
{
    std::vector<std::string> out;
    std::size_t pos = 0;
    while ((pos = text.find("${", pos)) != std::string_view::npos) {
        const std::size_t close = text.find('}', pos + 2);
        if (close == std::string_view::npos)
            break;
        out.emplace_back(text.substr(pos + 2, close - pos - 2));
        pos = close + 1;
    }
    return out;
}

} // namespace stampede
