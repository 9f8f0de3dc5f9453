#include "sharedwire.h"

#include "core/utf8.h"

namespace stampede {

void toWire(const std::vector<SharedOp>& ops, v1::SharedAsk& ask)
{
    for (const SharedOp& op : ops) {
        v1::SharedOp* o = ask.add_ops();
        o->set_kind(v1::SharedOp::Kind(op.kind));
        o->set_key(op.key);
        o->set_value(op.value);
        o->set_by(op.by);
    }
}

v1::SharedAnswer answerAsk(SharedStore& store, const v1::SharedAsk& ask)
{
    v1::SharedAnswer answer;
    answer.set_id(ask.id());
    std::vector<SharedOp> ops;
    for (const v1::SharedOp& o : ask.ops()) {
        if (!v1::SharedOp::Kind_IsValid(o.kind())) { // the store's kinds are the wire's, no other
            answer.set_error("an op of unknown kind " + std::to_string(o.kind()));
            return answer;
        }
        ops.push_back({SharedOp::Kind(o.kind()), o.key(), o.value(), o.by()});
    }
    std::string refused;
    for (SharedResult& r : store.apply(ops, refused)) {
        v1::SharedResult* w = answer.add_results();
        w->set_ok(r.ok);
        makeUtf8(r.error); // a key is UTF-8, a value quoted in an error may not be
        w->set_error(r.error);
        w->set_found(r.found);
        w->set_value(std::move(r.value));
        w->set_number(r.number);
    }
    answer.set_error(refused); // sharedAskRefused's words: UTF-8 (a key that is not is written escaped)
    return answer;
}

bool fromWire(const v1::SharedAnswer& answer, std::size_t ops, std::vector<SharedResult>& results, std::string& error)
{
    if (!answer.error().empty()) {
        error = answer.error();
        makeUtf8(error);
        return false;
    }
    if (std::size_t(answer.results_size()) != ops) {
        error = "the controller answered " + std::to_string(answer.results_size()) + " results to " +
                std::to_string(ops) + " ops";
        return false;
    }
    results.clear();
    for (const v1::SharedResult& w : answer.results()) {
        SharedResult r;
        r.ok = w.ok();
        r.error = w.error();
        makeUtf8(r.error);
        r.found = w.found();
        r.value = w.value();
        r.number = w.number();
        results.push_back(std::move(r));
    }
    return true;
}

} // namespace stampede
