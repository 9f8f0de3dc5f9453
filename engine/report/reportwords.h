#pragma once
// The HTML exports' words in the reader's language. The engine writes English; a caller with translations (the
// workbench, in its language) gives its own: `word` for the fixed words and phrases (every one the exports ask
// for is listed with the workbench's translations, and a test holds the two lists together), `sentence` for what
// the engine composed (a verdict, a reason, a threshold's note, an event's detail), `eventKind` for an event's
// kind ("agent_lost").
#include <functional>
#include <map>
#include <string>

namespace stampede {

struct ReportWords
{
    std::string lang = "en"; // the page's lang attribute
    std::function<std::string(const char* english)> word;
    std::function<std::string(const std::string& english)> sentence;
    std::function<std::string(const std::string& kind)> eventKind;

    std::string operator()(const char* english) const { return word ? word(english) : std::string(english); }
    std::string said(const std::string& english) const { return sentence ? sentence(english) : english; }
    std::string kind(const std::string& k) const { return eventKind ? eventKind(k) : k; }
};

// How a saved run is reported: APDEX's target time (global, and per step, group or scenario by its name) and the
// words of the HTML.
struct ReportOptions
{
    double apdexTMs = 500;
    std::map<std::string, double> apdexTByName; // a section's own T (its step's, group's or scenario's name)
    ReportWords words;

    double apdexTFor(const std::string& name) const
    {
        const auto it = apdexTByName.find(name);
        return it == apdexTByName.end() ? apdexTMs : it->second;
    }
};

} // namespace stampede
