#pragma once
// A scenario's schedule, as a person writes it, and as systemd's OnCalendar
// takes it (stampede-cli schedule install writes user timers; Stampede has no
// scheduler of its own):
//   daily HH:MM            every day at that time
//   weekly DAY HH:MM       DAY: mon tue wed thu fri sat sun
//   every N h | every N m  every N hours (1–24, from midnight) or minutes (5–60)
#include <optional>
#include <string>

namespace stampede {

struct Schedule
{
    std::string text;       // as written, normalised ("daily 02:00")
    std::string onCalendar; // "*-*-* 02:00:00"
};

// Parses `text`; nothing with `error` saying what is accepted.
std::optional<Schedule> parseSchedule(const std::string& text, std::string& error);

// Where systemd looks for a user's units: $XDG_CONFIG_HOME/systemd/user (~/.config/systemd/user).
std::string userUnitDir();
// The units of one project share "stampede-TAG-" (TAG from the project's absolute path).
std::string scheduleUnitPrefix(const std::string& absoluteProject);
// The timer and service of a scenario item: prefix + its name made a unit name (".timer", ".service" added).
std::string scheduleUnitBase(const std::string& absoluteProject, const std::string& scenarioItem);

} // namespace stampede
