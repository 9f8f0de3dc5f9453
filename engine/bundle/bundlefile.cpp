#include "bundlefile.h"

#include "core/textfile.h"
#include "grpc/protoschema.h"
#include "traffic/trafficcodec.h"
#include "traffic/trafficfile.h"

#include "stampede/v1/bundle.pb.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <vector>

#include <openssl/sha.h>

#include <cstring>
#include <functional>

namespace stampede {

namespace {

constexpr char kMagic[8] = {'S', 'T', 'B', 'U', 'N', 'D', 'L', 'E'};
constexpr std::size_t kHeaderSize = 8 + 4 + 8 + 32;

void putBigEndian(std::string& out, std::uint64_t v, int bytes)
{
    for (int i = bytes - 1; i >= 0; --i)
        out.push_back(char((v >> (8 * i)) & 0xFF));
}

std::uint64_t getBigEndian(const std::string& in, std::size_t pos, int bytes)
{
    std::uint64_t v = 0;
    for (int i = 0; i < bytes; ++i)
        v = (v << 8) | std::uint8_t(in[pos + std::size_t(i)]);
    return v;
}

std::string sha256(const std::string& data)
{
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest);
    return std::string(reinterpret_cast<const char*>(digest), sizeof digest);
}

} // namespace

namespace {

// `file`'s bytes into `data` (relative to `baseDir`), unless `data` already holds them; false with `error`
// naming `field`.
bool readInto(const std::string& baseDir, const std::string& file, const std::string& field, std::string& data,
              std::string& error)
{
    if (!data.empty())
        return true;
    std::string why;
    if (readWholeFile(pathUnder(baseDir, file), data, why))
        return true;
    error = field + ": cannot read \"" + file + "\": " + why;
    return false;
}

// A form's files travel as their bytes, with the filename the path gave.
bool inlineFormFiles(v1::Form& form, const std::string& baseDir, const std::string& field, std::string& error)
{
    for (int k = 0; k < form.files_size(); ++k) {
        v1::FormFile& f = *form.mutable_files(k);
        if (f.file().empty())
            continue;
        if (!readInto(baseDir, f.file(), field + ".form.files[" + std::to_string(k) + "].file", *f.mutable_data(),
                      error))
            return false;
        if (f.filename().empty())
            f.set_filename(std::string(fileBaseName(f.file())));
        f.clear_file(); // its bytes are there: no file is named in a bundle
    }
    return true;
}

// A file body travels as its bytes, with the Content-Type its name gave.
bool inlineBodyFile(v1::BodyFile& f, const std::string& baseDir, const std::string& field, std::string& error)
{
    if (f.file().empty())
        return true;
    if (!readInto(baseDir, f.file(), field + ".body_file.file", *f.mutable_data(), error))
        return false;
    if (f.content_type().empty())
        f.set_content_type(contentTypeOfFilename(fileBaseName(f.file())));
    f.clear_file();
    return true;
}

// gRPC steps carry their schema as descriptors, imported here once; a
// replay's file travels as its requests, masked here; a form's files as their bytes.
bool inlineSteps(google::protobuf::RepeatedPtrField<v1::Step>& steps, const std::string& baseDir,
                 const std::string& field, std::string& error)
{
    for (int i = 0; i < steps.size(); ++i) {
        const std::string sf = field + "[" + std::to_string(i) + "]";
        if (steps.Get(i).has_request() && steps.Get(i).request().has_form() &&
            !inlineFormFiles(*steps.Mutable(i)->mutable_request()->mutable_form(), baseDir, sf + ".request", error))
            return false;
        if (steps.Get(i).has_request() && steps.Get(i).request().has_body_file() &&
            !inlineBodyFile(*steps.Mutable(i)->mutable_request()->mutable_body_file(), baseDir, sf + ".request", error))
            return false;
        if (steps.Get(i).has_grpc()) {
            auto* g = steps.Mutable(i)->mutable_grpc();
            if (!g->descriptors().empty()) { // the descriptors win: no file is named in a bundle
                g->clear_protos();
                g->clear_import_paths();
            }
            if (!g->descriptors().empty() || g->protos().empty())
                continue;
            std::string why;
            const auto schema = ProtoSchema::importUnder(baseDir, g->protos(), g->import_paths(), why);
            if (!schema) {
                error = sf + ".grpc.protos: " + why;
                return false;
            }
            g->set_descriptors(schema->descriptorSet());
            g->clear_protos();
            g->clear_import_paths();
        }
        if (steps.Get(i).has_replay() && !steps.Get(i).replay().data().empty())
            steps.Mutable(i)->mutable_replay()->clear_file(); // its requests are there: no file is named in a bundle
        if (!steps.Get(i).has_replay() || !steps.Get(i).replay().data().empty() || steps.Get(i).replay().file().empty())
            continue;
        auto* r = steps.Mutable(i)->mutable_replay();
        TrafficImport in;
        std::string where, why;
        const std::vector<std::string> masks(r->mask().begin(), r->mask().end());
        if (!readMaskedTrafficFile(pathUnder(baseDir, r->file()), r->format(), masks, in, where, why)) {
            error = sf + ".replay." + where + ": " + why;
            return false;
        }
        r->set_data(encodeTrafficSet(in.records));
        r->clear_mask();
        r->clear_file();
    }
    return true;
}

// Every file `s` reads, inline: CSV data, proto schemas, replayed traffic,
// TLS files (the agents have no access to the controller's disk); a plan's
// scenarios, setup and teardown too. Faults name the field under `prefix`.
bool inlineFiles(v1::Scenario& s, const std::string& baseDir, const std::string& prefix, std::string& error)
{
    auto* vars = s.mutable_variables();
    for (int i = 0; i < vars->size(); ++i) {
        auto* v = vars->Mutable(i);
        if (v->has_csv() && !v->csv().data().empty())
            v->mutable_csv()->clear_file(); // its rows are there: no file is named in a bundle
        if (!v->has_csv() || !v->csv().data().empty())
            continue;
        if (!readInto(baseDir, v->csv().file(), prefix + "variables[" + std::to_string(i) + "].csv.file",
                      *v->mutable_csv()->mutable_data(), error))
            return false;
        v->mutable_csv()->clear_file();
    }
    if (!inlineSteps(*s.mutable_steps(), baseDir, prefix + "steps", error) ||
        !inlineSteps(*s.mutable_setup(), baseDir, prefix + "setup", error) ||
        !inlineSteps(*s.mutable_teardown(), baseDir, prefix + "teardown", error))
        return false;
    if (s.has_tls()) {
        auto* tls = s.mutable_tls();
        const struct
        {
            const char* field;
            std::string file;
            std::string* pem;
        } files[] = {{"tls.ca_file", tls->ca_file(), tls->mutable_ca_pem()},
                     {"tls.cert_file", tls->cert_file(), tls->mutable_cert_pem()},
                     {"tls.key_file", tls->key_file(), tls->mutable_key_pem()}};
        for (const auto& f : files)
            if (!f.file.empty() && !readInto(baseDir, f.file, prefix + f.field, *f.pem, error))
                return false;
        tls->clear_ca_file();
        tls->clear_cert_file();
        tls->clear_key_file();
        if (tls->ByteSizeLong() == 0)
            s.clear_tls();
    }
    for (int i = 0; i < s.scenarios_size(); ++i)
        if (!inlineFiles(*s.mutable_scenarios(i), baseDir, prefix + "scenarios[" + std::to_string(i) + "].", error))
            return false;
    return true;
}

} // namespace

bool makeBundle(const v1::Scenario& scenario, const std::string& baseDir, const std::string& sourceName,
                v1::Bundle& out, std::string& error)
{
    out.Clear();
    out.set_format_version(kBundleFormatVersion);
    out.set_source_name(sourceName);
    out.set_created_by("stampede " STAMPEDE_VERSION);
    *out.mutable_scenario() = scenario;
    return inlineFiles(*out.mutable_scenario(), baseDir, "", error);
}

std::string encodeBundle(const v1::Bundle& bundle)
{
    const std::string payload = bundle.SerializeAsString();
    std::string out(kMagic, sizeof kMagic);
    putBigEndian(out, kBundleFormatVersion, 4);
    putBigEndian(out, payload.size(), 8);
    out += sha256(payload);
    out += payload;
    return out;
}

namespace {
bool isPathField(const std::string& name)
{
    return name == "file" || name == "protos" || name == "import_paths" ||
           (name.size() > 5 && name.compare(name.size() - 5, 5, "_file") == 0);
}

// Each path field under `m` (`at`: where, as "steps[0].grpc.protos[1]"; `name`: the field's), depth first, in
// order, until `visit` says stop (false); false when it did.
using PathVisit = std::function<bool(const std::string& name, const std::string& at, const std::string& value)>;
bool eachPathField(const google::protobuf::Message& m, const std::string& prefix, const PathVisit& visit)
{
    using google::protobuf::FieldDescriptor;
    const google::protobuf::Reflection* r = m.GetReflection();
    std::vector<const FieldDescriptor*> fields;
    r->ListFields(m, &fields);
    for (const FieldDescriptor* f : fields) {
        const bool path = f->cpp_type() == FieldDescriptor::CPPTYPE_STRING && isPathField(f->name());
        if (!path && (f->cpp_type() != FieldDescriptor::CPPTYPE_MESSAGE || f->is_map()))
            continue;
        const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
        for (int i = 0; i < n; ++i) {
            const std::string at = prefix + f->name() + (f->is_repeated() ? "[" + std::to_string(i) + "]" : "");
            if (path ? !visit(f->name(), at, f->is_repeated() ? r->GetRepeatedString(m, f, i) : r->GetString(m, f))
                     : !eachPathField(f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f), at + ".",
                                      visit))
                return false;
        }
    }
    return true;
}
} // namespace

std::string pathNamedIn(const v1::Scenario& scenario)
{
    std::string found;
    eachPathField(scenario, "", [&](const std::string&, const std::string& at, const std::string& value) {
        found = at + " (\"" + value.substr(0, 200) + "\")";
        return false; // the first
    });
    return found;
}

std::vector<std::string> filesNamedIn(const v1::Scenario& scenario)
{
    std::vector<std::string> out;
    eachPathField(scenario, "", [&](const std::string& name, const std::string&, const std::string& value) {
        if (name != "import_paths" && !value.empty()) // import paths are folders, not files
            out.push_back(value);
        return true;
    });
    return out;
}

bool looksLikeBundle(const std::string& bytes)
{
    return bytes.size() >= sizeof kMagic && std::memcmp(bytes.data(), kMagic, sizeof kMagic) == 0;
}

bool decodeBundle(const std::string& bytes, v1::Bundle& out, std::string& error)
{
    if (!looksLikeBundle(bytes)) {
        error = "not a Stampede bundle (the file does not start with STBUNDLE)";
        return false;
    }
    if (bytes.size() < kHeaderSize) {
        error = "truncated bundle: the header is incomplete (" + std::to_string(bytes.size()) + " bytes)";
        return false;
    }
    const auto version = std::uint32_t(getBigEndian(bytes, 8, 4));
    if (version > kBundleFormatVersion) {
        error = "the bundle has format version " + std::to_string(version) + ", newer than this stampede reads (" +
                std::to_string(kBundleFormatVersion) + "): upgrade stampede";
        return false;
    }
    if (version == 0) {
        error = "the bundle has format version 0, which no stampede writes";
        return false;
    }
    const std::uint64_t length = getBigEndian(bytes, 12, 8);
    if (bytes.size() - kHeaderSize < length) {
        error = "truncated bundle: " + std::to_string(bytes.size() - kHeaderSize) + " of " + std::to_string(length) +
                " payload bytes";
        return false;
    }
    if (bytes.size() - kHeaderSize > length) {
        error = "altered bundle: " + std::to_string(bytes.size() - kHeaderSize - length) + " bytes follow the payload";
        return false;
    }
    const std::string payload = bytes.substr(kHeaderSize);
    if (sha256(payload) != bytes.substr(20, 32)) {
        error = "altered bundle: the SHA-256 digest does not match the content";
        return false;
    }
    if (!out.ParseFromString(payload)) {
        error = "damaged bundle: the payload does not parse";
        return false;
    }
    if (const std::string path = pathNamedIn(out.scenario()); !path.empty()) {
        error = "the bundle names a file to open: " + path +
                "; a bundle carries its data inline (make it with stampede-cli bundle), and is never read from a "
                "path it names";
        return false;
    }
    return true;
}

} // namespace stampede
