#include "number.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace stampede {

namespace {
std::string grouped(std::uint64_t v)
{
    std::string digits = std::to_string(v), out;
    for (std::size_t i = 0; i < digits.size(); ++i) {
        if (i && (digits.size() - i) % 3 == 0)
            out += ',';
        out += digits[i];
    }
    return out;
}

// "-5" for a field that takes positive numbers: said as such.
bool negative(std::string_view text, const std::string& field, std::string& error)
{
    if (text.size() < 2 || text[0] != '-' || text.find_first_not_of("0123456789.", 1) != std::string_view::npos)
        return false;
    error = field + ": must be positive (got " + std::string(text) + ")";
    return true;
}

std::string shown(double v)
{
    if (v == std::floor(v) && v < 1e15)
        return grouped(std::uint64_t(v));
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}
} // namespace

bool parseWhole(std::string_view text, std::string_view field, std::uint64_t min, std::uint64_t max, std::uint64_t& out,
                std::string& error)
{
    const std::string f(field);
    if (negative(text, f, error))
        return false;
    if (text.empty() || text.find_first_not_of("0123456789") != std::string_view::npos) {
        error = f + ": \"" + std::string(text) + "\" is not a whole number";
        return false;
    }
    std::uint64_t v = 0;
    for (const char c : text) {
        const auto d = std::uint64_t(c - '0');
        if (v > (UINT64_MAX - d) / 10) {
            error = f + ": " + std::string(text) + " is too large (at most " + grouped(max) + ")";
            return false;
        }
        v = v * 10 + d;
    }
    if (v < min || v > max) {
        error = f + ": " + std::string(text) + " is out of range (" + grouped(min) + " to " + grouped(max) + ")";
        return false;
    }
    out = v;
    return true;
}

bool parseDecimal(std::string_view text, std::string_view field, double min, double max, double& out,
                  std::string& error)
{
    const std::string f(field);
    if (negative(text, f, error))
        return false;
    const std::size_t point = text.find('.');
    const bool digitsOnly = text.find_first_not_of("0123456789.") == std::string_view::npos;
    const bool onePoint = point == std::string_view::npos || text.find('.', point + 1) == std::string_view::npos;
    if (text.empty() || !digitsOnly || !onePoint || text == "." || text.size() > 32) {
        error = f + ": \"" + std::string(text) + "\" is not a number (write it out, like 250 or 0.5)";
        return false;
    }
    const double v = std::strtod(std::string(text).c_str(), nullptr);
    if (!std::isfinite(v) || v < min || v > max) {
        error = f + ": " + std::string(text) + " is out of range (" + shown(min) + " to " + shown(max) + ")";
        return false;
    }
    out = v;
    return true;
}

} // namespace stampede
