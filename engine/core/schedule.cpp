#include "schedule.h"

#include <cctype>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace stampede {

namespace {

bool clockTime(const std::string& t, int& h, int& m)
{
    char rest = 0;
    return std::sscanf(t.c_str(), "%2d:%2d%c", &h, &m, &rest) == 2 && t.size() == 5 && h >= 0 && h < 24 && m >= 0 &&
           m < 60;
}

std::string two(int v)
{
    char b[8];
    std::snprintf(b, sizeof b, "%02d", v);
    return b;
}

} // namespace

std::optional<Schedule> parseSchedule(const std::string& text, std::string& error)
{
    std::istringstream in(text);
    std::vector<std::string> w;
    for (std::string word; in >> word;) {
        for (char& c : word)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        w.push_back(word);
    }
    const std::string accepted = " (write \"daily 02:00\", \"weekly mon 03:30\", \"every 6h\" or \"every 30m\")";
    int h = 0, m = 0;
    if (w.size() == 2 && w[0] == "daily" && clockTime(w[1], h, m))
        return Schedule{"daily " + w[1], "*-*-* " + two(h) + ":" + two(m) + ":00"};
    static const char* days[] = {"mon", "tue", "wed", "thu", "fri", "sat", "sun"};
    static const char* systemdDays[] = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    if (w.size() == 3 && w[0] == "weekly" && clockTime(w[2], h, m))
        for (int d = 0; d < 7; ++d)
            if (w[1] == days[d])
                return Schedule{"weekly " + w[1] + " " + w[2],
                                std::string(systemdDays[d]) + " *-*-* " + two(h) + ":" + two(m) + ":00"};
    // every N h / every Nh / every N m
    std::string amount = w.size() >= 2 && w[0] == "every" ? w[1] : std::string();
    if (w.size() == 3)
        amount += w[2];
    if (!amount.empty() && w.size() <= 3) {
        std::size_t used = 0;
        int n = 0;
        try {
            n = std::stoi(amount, &used);
        } catch (...) {
            used = 0;
        }
        const std::string unit = used ? amount.substr(used) : std::string();
        const bool hours = unit == "h" || unit == "hour" || unit == "hours";
        const bool minutes = unit == "m" || unit == "min" || unit == "minutes";
        if (hours && n >= 1 && n <= 24)
            return Schedule{"every " + std::to_string(n) + "h", "*-*-* 00/" + std::to_string(n) + ":00:00"};
        if (minutes && n >= 5 && n <= 60)
            return Schedule{"every " + std::to_string(n) + "m", "*-*-* *:00/" + std::to_string(n) + ":00"};
        if (hours || minutes) {
            error = "schedule \"" + text + "\": every 1 to 24 hours, or every 5 to 60 minutes";
            return std::nullopt;
        }
    }
    error = "schedule \"" + text + "\" is not understood" + accepted;
    return std::nullopt;
}

std::string userUnitDir()
{
    const char* config = std::getenv("XDG_CONFIG_HOME");
    const char* home = std::getenv("HOME");
    return (config && *config ? std::string(config) : std::string(home ? home : ".") + "/.config") + "/systemd/user";
}

std::string scheduleUnitPrefix(const std::string& absoluteProject)
{
    std::uint64_t h = 1469598103934665603ULL; // FNV-1a: the same tag on every machine and build
    for (unsigned char c : absoluteProject)
        h = (h ^ c) * 1099511628211ULL;
    char b[32];
    std::snprintf(b, sizeof b, "stampede-%08llx-", static_cast<unsigned long long>(h & 0xffffffffULL));
    return b;
}

std::string scheduleUnitBase(const std::string& absoluteProject, const std::string& scenarioItem)
{
    std::string slug;
    for (unsigned char c : scenarioItem)
        slug += std::isalnum(c) ? char(std::tolower(c)) : '-';
    while (slug.find("--") != std::string::npos)
        slug.erase(slug.find("--"), 1);
    return scheduleUnitPrefix(absoluteProject) + slug.substr(0, 40);
}

} // namespace stampede
