#include "protoschema.h"

#include "core/textfile.h"

#include <google/protobuf/compiler/importer.h>
#include <google/protobuf/descriptor.h>
#include <google/protobuf/descriptor.pb.h>
#include <google/protobuf/dynamic_message.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <set>

namespace stampede {

namespace pb = google::protobuf;

struct ProtoSchema::Data
{
    pb::DescriptorPool pool;
    pb::DynamicMessageFactory factory{&pool};
    std::vector<const pb::FileDescriptor*> files; // each after its dependencies
};

ProtoSchema::ProtoSchema() : d(std::make_unique<Data>()) {}
ProtoSchema::~ProtoSchema() = default;

const pb::DescriptorPool& ProtoSchema::pool() const
{
    return d->pool;
}

namespace {

// Where the well-known types (google/protobuf/*.proto) live on Debian.
constexpr const char* kWellKnownDir = "/usr/include";

class Collector final : public pb::compiler::MultiFileErrorCollector
{
public:
    void AddError(const std::string& file, int line, int column, const std::string& message) override
    {
        if (!text.empty())
            text += "\n";
        text += file;
        if (line >= 0)
            text += ":" + std::to_string(line + 1) + ":" + std::to_string(column + 1);
        text += ": " + message;
    }
    std::string text;
};

class PoolErrors final : public pb::DescriptorPool::ErrorCollector
{
public:
    void AddError(const std::string& file, const std::string& element, const pb::Message*, ErrorLocation,
                  const std::string& message) override
    {
        if (!text.empty())
            text += "\n";
        text += file + (element.empty() ? "" : " (" + element + ")") + ": " + message;
    }
    std::string text;
};

} // namespace

std::shared_ptr<ProtoSchema> ProtoSchema::import(const std::vector<std::string>& files,
                                                 const std::vector<std::string>& importPaths, std::string& error)
{
    namespace fs = std::filesystem;
    if (files.empty()) {
        error = "no .proto file given";
        return nullptr;
    }
    pb::FileDescriptorSet set;
    std::set<std::string> added;
    for (const auto& file : files) {
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {
            error = "cannot read \"" + file + "\": no such file";
            return nullptr;
        }
        // A fresh importer per file: its own directory comes first.
        pb::compiler::DiskSourceTree tree;
        const fs::path path = fs::absolute(file, ec);
        tree.MapPath("", path.parent_path().string());
        for (const auto& dir : importPaths)
            tree.MapPath("", dir);
        tree.MapPath("", kWellKnownDir);
        Collector errors;
        pb::compiler::Importer importer(&tree, &errors);
        const pb::FileDescriptor* fd = importer.Import(path.filename().string());
        if (!fd) {
            error = errors.text.empty() ? "cannot import \"" + file + "\"" : errors.text;
            // the importer names the file as it was mapped: name it as given
            const std::string mapped = path.filename().string();
            if (error.compare(0, mapped.size(), mapped) == 0 && mapped != file)
                error = file + error.substr(mapped.size());
            return nullptr;
        }
        std::function<void(const pb::FileDescriptor*)> add = [&](const pb::FileDescriptor* f) {
            if (added.count(f->name()))
                return;
            for (int i = 0; i < f->dependency_count(); ++i)
                add(f->dependency(i));
            added.insert(f->name());
            f->CopyTo(set.add_file());
        };
        add(fd);
    }
    return fromDescriptorSet(set.SerializeAsString(), error);
}

std::shared_ptr<ProtoSchema> ProtoSchema::importUnder(const std::string& baseDir,
                                                      const pb::RepeatedPtrField<std::string>& files,
                                                      const pb::RepeatedPtrField<std::string>& importPaths,
                                                      std::string& error)
{
    std::vector<std::string> paths, dirs;
    for (const auto& f : files)
        paths.push_back(pathUnder(baseDir, f));
    for (const auto& d : importPaths)
        dirs.push_back(pathUnder(baseDir, d));
    return import(paths, dirs, error);
}

std::shared_ptr<ProtoSchema> ProtoSchema::fromFileProtos(const std::vector<std::string>& files, std::string& error)
{
    pb::FileDescriptorSet set;
    for (const auto& f : files) {
        if (!set.add_file()->ParseFromString(f)) {
            error = "a file descriptor does not parse";
            return nullptr;
        }
    }
    return fromDescriptorSet(set.SerializeAsString(), error);
}

std::shared_ptr<ProtoSchema> ProtoSchema::fromDescriptorSet(const std::string& bytes, std::string& error)
{
    pb::FileDescriptorSet set;
    if (!set.ParseFromString(bytes)) {
        error = "the descriptor set does not parse (not a FileDescriptorSet)";
        return nullptr;
    }
    std::shared_ptr<ProtoSchema> s(new ProtoSchema);
    // Build in dependency order whatever order the set came in.
    std::map<std::string, const pb::FileDescriptorProto*> byName;
    for (const auto& f : set.file())
        byName.emplace(f.name(), &f);
    PoolErrors errors;
    std::function<bool(const pb::FileDescriptorProto&, int)> build = [&](const pb::FileDescriptorProto& f, int depth) {
        if (s->d->pool.FindFileByName(f.name()))
            return true;
        if (depth > 100)
            return false;
        for (const auto& dep : f.dependency()) {
            auto it = byName.find(dep);
            if (it != byName.end()) {
                if (!build(*it->second, depth + 1))
                    return false;
            } else if (!s->d->pool.FindFileByName(dep)) {
                errors.text = f.name() + ": imports \"" + dep + "\", which the descriptors do not include";
                return false;
            }
        }
        const pb::FileDescriptor* fd = s->d->pool.BuildFileCollectingErrors(f, &errors);
        if (!fd)
            return false;
        s->d->files.push_back(fd);
        return true;
    };
    for (const auto& f : set.file()) {
        if (!build(f, 0)) {
            error = errors.text.empty() ? "the descriptors do not build" : errors.text;
            return nullptr;
        }
    }
    if (s->d->files.empty()) {
        error = "the descriptor set is empty";
        return nullptr;
    }
    return s;
}

const pb::MethodDescriptor* ProtoSchema::method(std::string_view name, std::string& error) const
{
    std::string full(name);
    if (!full.empty() && full.front() == '/')
        full.erase(0, 1);
    std::size_t split = full.find('/');
    if (split == std::string::npos)
        split = full.rfind('.');
    if (split == std::string::npos || split == 0 || split + 1 == full.size()) {
        error = "\"" + std::string(name) + "\" is not a method: write package.Service/Method";
        return nullptr;
    }
    const std::string service = full.substr(0, split);
    const std::string method = full.substr(split + 1);
    const pb::ServiceDescriptor* sd = d->pool.FindServiceByName(service);
    if (!sd) {
        const auto known = services();
        std::string list;
        for (const auto& k : known)
            list += (list.empty() ? "" : ", ") + k;
        error =
            "no service \"" + service + "\" in the .proto files" + (list.empty() ? "" : " (they define " + list + ")");
        return nullptr;
    }
    const pb::MethodDescriptor* md = sd->FindMethodByName(method);
    if (!md) {
        std::string list;
        for (int i = 0; i < sd->method_count(); ++i)
            list += (i ? ", " : "") + sd->method(i)->name();
        error = "service " + service + " has no method \"" + method + "\" (it has " + list + ")";
        return nullptr;
    }
    return md;
}

std::vector<std::string> ProtoSchema::services() const
{
    std::vector<std::string> out;
    for (const auto* f : d->files)
        for (int i = 0; i < f->service_count(); ++i)
            out.push_back(f->service(i)->full_name());
    std::sort(out.begin(), out.end());
    return out;
}

std::vector<std::string> ProtoSchema::methods() const
{
    std::vector<std::string> out;
    for (const auto* f : d->files)
        for (int i = 0; i < f->service_count(); ++i)
            for (int m = 0; m < f->service(i)->method_count(); ++m)
                out.push_back(f->service(i)->full_name() + "/" + f->service(i)->method(m)->name());
    std::sort(out.begin(), out.end());
    return out;
}

std::string ProtoSchema::descriptorSet() const
{
    pb::FileDescriptorSet set;
    for (const auto* f : d->files)
        f->CopyTo(set.add_file());
    return set.SerializeAsString();
}

std::vector<std::string> ProtoSchema::fileProtosFor(std::string_view symbol, bool byFile) const
{
    const pb::FileDescriptor* file = nullptr;
    if (byFile) {
        file = d->pool.FindFileByName(std::string(symbol));
    } else {
        const std::string name(symbol);
        if (const auto* sd = d->pool.FindServiceByName(name))
            file = sd->file();
        else if (const auto* md = d->pool.FindMessageTypeByName(name))
            file = md->file();
        else if (const auto* ed = d->pool.FindEnumTypeByName(name))
            file = ed->file();
        else if (const auto* m = d->pool.FindMethodByName(name))
            file = m->file();
    }
    std::vector<std::string> out;
    if (!file)
        return out;
    std::set<std::string> seen;
    std::function<void(const pb::FileDescriptor*)> add = [&](const pb::FileDescriptor* f) {
        if (!seen.insert(f->name()).second)
            return;
        pb::FileDescriptorProto p;
        f->CopyTo(&p);
        out.push_back(p.SerializeAsString());
        for (int i = 0; i < f->dependency_count(); ++i)
            add(f->dependency(i));
    };
    add(file);
    return out;
}

std::unique_ptr<pb::Message> ProtoSchema::newMessage(const pb::Descriptor* type) const
{
    const pb::Message* proto = d->factory.GetPrototype(type);
    return std::unique_ptr<pb::Message>(proto ? proto->New() : nullptr);
}

bool jsonToBinary(pb::Message& scratch, std::string_view json, std::string& binary, std::string& error)
{
    scratch.Clear();
    pb::util::JsonParseOptions options;
    const auto status = pb::util::JsonStringToMessage(pb::StringPiece(json.data(), json.size()), &scratch, options);
    if (!status.ok()) {
        error = "the JSON does not fit " + scratch.GetDescriptor()->full_name() + ": " + std::string(status.message());
        return false;
    }
    binary.clear();
    scratch.AppendToString(&binary);
    return true;
}

bool jsonToBinary(const ProtoSchema& schema, const pb::Descriptor* type, std::string_view json, std::string& binary,
                  std::string& error)
{
    auto m = schema.newMessage(type);
    return m && jsonToBinary(*m, json, binary, error);
}

bool binaryToJson(const ProtoSchema& schema, const pb::Descriptor* type, std::string_view binary, std::string& json,
                  std::string& error)
{
    auto m = schema.newMessage(type);
    if (!m || !m->ParseFromArray(binary.data(), int(binary.size()))) {
        error = "the answer is not a " + type->full_name() + " message";
        return false;
    }
    pb::util::JsonPrintOptions options;
    options.add_whitespace = true;
    options.preserve_proto_field_names = true;
    options.always_print_primitive_fields = true;
    json.clear();
    const auto status = pb::util::MessageToJsonString(*m, &json, options);
    if (!status.ok()) {
        error = std::string(status.message());
        return false;
    }
    return true;
}

namespace {

std::string neutral(const pb::FieldDescriptor* f, int depth)
{
    using T = pb::FieldDescriptor;
    switch (f->cpp_type()) {
    case T::CPPTYPE_BOOL:
        return "false";
    case T::CPPTYPE_STRING:
        return "\"\"";
    case T::CPPTYPE_ENUM:
        return "\"" + f->enum_type()->value(0)->name() + "\"";
    case T::CPPTYPE_MESSAGE: {
        const std::string& name = f->message_type()->full_name();
        if (name == "google.protobuf.Timestamp")
            return "\"1970-01-01T00:00:00Z\"";
        if (name == "google.protobuf.Duration")
            return "\"0s\"";
        if (depth >= 2 || name.rfind("google.protobuf.", 0) == 0)
            return "{}";
        std::string out = "{";
        const pb::Descriptor* d = f->message_type();
        for (int i = 0; i < d->field_count(); ++i) {
            if (d->field(i)->is_map() || d->field(i)->message_type() == d)
                continue;
            out += std::string(out.size() > 1 ? ", " : "") + "\"" + d->field(i)->name() +
                   "\": " + (d->field(i)->is_repeated() ? "[]" : neutral(d->field(i), depth + 1));
        }
        return out + "}";
    }
    case T::CPPTYPE_INT64:
    case T::CPPTYPE_UINT64:
        return "\"0\"";
    default:
        return "0";
    }
}

} // namespace

std::string skeletonJson(const pb::Descriptor* type)
{
    std::string out = "{";
    for (int i = 0; i < type->field_count(); ++i) {
        const pb::FieldDescriptor* f = type->field(i);
        out += std::string(i ? "," : "") + "\n  \"" + f->name() + "\": " +
               (f->is_map()        ? "{}"
                : f->is_repeated() ? "[]"
                                   : neutral(f, 1));
    }
    return out + (type->field_count() ? "\n}" : "}");
}

std::string grpcFrame(std::string_view message)
{
    std::string out;
    out.reserve(5 + message.size());
    const auto n = std::uint32_t(message.size());
    out += '\0';
    out += char(n >> 24);
    out += char(n >> 16);
    out += char(n >> 8);
    out += char(n);
    out.append(message);
    return out;
}

bool grpcUnframe(std::string_view data, std::vector<std::string>& messages, std::string& error)
{
    std::size_t pos = 0;
    while (pos < data.size()) {
        if (data.size() - pos < 5) {
            error = "a gRPC message is cut short";
            return false;
        }
        if (data[pos] != 0) {
            error = "the answer is compressed (grpc-encoding), which is not supported";
            return false;
        }
        const auto* p = reinterpret_cast<const unsigned char*>(data.data() + pos + 1);
        const std::size_t n = (std::size_t(p[0]) << 24) | (std::size_t(p[1]) << 16) | (std::size_t(p[2]) << 8) | p[3];
        if (data.size() - pos - 5 < n) {
            error = "a gRPC message is cut short";
            return false;
        }
        messages.emplace_back(data.substr(pos + 5, n));
        pos += 5 + n;
    }
    return true;
}

} // namespace stampede
