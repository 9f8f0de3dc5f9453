#include "wireutf8.h"

#include "core/utf8.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>
#include <google/protobuf/reflection.h>

#include <vector>

namespace stampede {

int makeStringsUtf8(google::protobuf::Message& message)
{
    using google::protobuf::FieldDescriptor;
    const google::protobuf::Reflection* r = message.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    r->ListFields(message, &fields); // set fields only: an unset one is empty, valid
    int changed = 0;
    for (const FieldDescriptor* f : fields) {
        if (f->type() == FieldDescriptor::TYPE_STRING) {
            if (f->is_repeated()) {
                for (int i = 0; i < r->FieldSize(message, f); ++i) {
                    std::string s = r->GetRepeatedString(message, f, i);
                    if (!makeUtf8(s)) {
                        r->SetRepeatedString(&message, f, i, std::move(s));
                        ++changed;
                    }
                }
            } else {
                std::string s = r->GetString(message, f);
                if (!makeUtf8(s)) {
                    r->SetString(&message, f, std::move(s));
                    ++changed;
                }
            }
        } else if (f->cpp_type() == FieldDescriptor::CPPTYPE_MESSAGE) {
            // a map's entries are messages of (key, value): the same walk
            if (f->is_repeated()) {
                for (int i = 0; i < r->FieldSize(message, f); ++i)
                    changed += makeStringsUtf8(*r->MutableRepeatedMessage(&message, f, i));
            } else {
                changed += makeStringsUtf8(*r->MutableMessage(&message, f));
            }
        }
    }
    return changed;
}

} // namespace stampede
