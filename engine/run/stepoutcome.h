#pragma once
// What one send of a step came to (an answer judged, or a failure without one), and how it is counted in its
// step's second: a request, its bytes and times when an answer came, and its error by class with a sample. The
// worker decides what comes next (a retry, the next step, what onError says); this only counts, once.
#include "checktally.h"
#include "core/clock.h"
#include "metrics/runmetrics.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

struct Answer;
struct AnswerView;

struct StepOutcome
{
    Verdict verdict = Verdict::Pass;
    ErrorClass errorClass = ErrorClass::Protocol; // Failed; StatusError: the status's class
    int status = 0;                               // the answer's code (Answer::code)
    std::uint64_t bytesIn = 0;
    Nanos timeToFirstByte = -1; // the answer's (Answer::timeToFirstByte)
    bool answered = false;      // an answer came: its latency counts
    bool transport = false;     // no answer came (the transport, or a request never made)
    std::string_view sample;    // the answer's start, for a status error's sample (else empty)
    std::string why;

    // An answer, judged by its protocol's status alone: a pass, or a status error with its account.
    static StepOutcome of(const Answer& answer);
    // A send without an answer (Answer::failed): counted as the status its protocol gives it (a call's
    // deadline), or as the failure's class.
    static StepOutcome unanswered(const Answer& answer);
    // A send that failed as `error` (the transport, or a request that could not be made).
    static StepOutcome failure(ErrorClass error, std::string_view why);
    // The verdict the step's checks and test script reached on the answer `answer` (`why` theirs); a status
    // error keeps the status's account.
    void judged(Verdict v, std::string checksWhy, const Answer& answer);
};

// Where and when a send went, for its count: the second it is counted in, the step's place in the run, the
// iteration's trace id, when the step was meant to start and when it was handed to its connection.
struct SendTimes
{
    Nanos intended = 0;
    Nanos sent = 0;
};
struct OutcomePlace
{
    IntervalMetrics& second;
    std::uint32_t step = 0; // the run's place of the step
    std::string_view trace;
    SendTimes times;
};

// An answer's times: latency from the intended start, service time from the send, and the time to first byte the
// session measured (-1: none).
void recordTimes(StepMetrics& m, SendTimes times, Nanos now, Nanos timeToFirstByte);

// Counts `o` into `m` (its step's metrics in `at.second`): one request; an answer's bytes and times; an error's
// class (a status error by its status) with a sample: the raw start of a status error's answer, the judged answer
// `answer` of a failed check or test script, the account of a failure.
void countOutcome(StepMetrics& m, const StepOutcome& o, const AnswerView* answer, const OutcomePlace& at, Nanos now);

} // namespace stampede
