#include "textfile.h"

#include "text.h"

#include <cerrno>
#include <climits>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace stampede {

bool readWholeFile(const std::string& path, std::string& out, std::string& why)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return false;
    }
    out.clear();
    struct stat st;
    if (::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
        if (std::uint64_t(st.st_size) > kMaxWholeFile) { // refused by its size, before a byte is read
            why = "larger than 256 MiB";
            return false;
        }
        out.reserve(std::size_t(st.st_size));
    }
    char chunk[65536];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        out.append(chunk, std::size_t(in.gcount()));
        if (out.size() > kMaxWholeFile) {
            out.clear();
            why = "larger than 256 MiB";
            return false;
        }
    }
    if (in.bad()) {
        why = std::strerror(errno);
        return false;
    }
    return true;
}

std::string pathUnder(const std::string& baseDir, const std::string& file)
{
    if (file.empty() || file[0] == '/' || baseDir.empty())
        return file;
    return baseDir + "/" + file;
}

bool readTokenFile(const std::string& path, std::string& token, std::string& why)
{
    std::string text;
    if (!readWholeFile(path, text, why))
        return false;
    const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; };
    std::size_t begin = 0, end = text.size();
    while (begin < end && blank(text[begin]))
        ++begin;
    while (end > begin && blank(text[end - 1]))
        --end;
    token = text.substr(begin, end - begin);
    if (token.empty()) {
        why = "it holds no token";
        return false;
    }
    for (const char c : token) {
        if (static_cast<unsigned char>(c) < 0x21 || c == 0x7f) {
            why = "the token holds a space or a control character";
            return false;
        }
    }
    return true;
}

const std::string* overwritesInput(const std::string& output, const std::vector<std::string>& inputs)
{
    for (const auto& in : inputs) // the same path, even before either exists
        if (!output.empty() && in == output)
            return &in;
    struct stat out;
    if (output.empty() || ::stat(output.c_str(), &out) != 0)
        return nullptr; // a file that does not exist overwrites nothing
    if (S_ISFIFO(out.st_mode) || S_ISCHR(out.st_mode))
        return nullptr; // written through, never replaced
    for (const auto& in : inputs) {
        struct stat st;
        if (!in.empty() && ::stat(in.c_str(), &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino)
            return &in;
    }
    return nullptr;
}

bool writeFileAtomically(const std::string& path, const std::string& data, std::string& why)
{
    std::string temp = path + ".tmp-XXXXXX";
    const int fd = ::mkstemp(temp.data());
    if (fd < 0) {
        why = "cannot create a file beside \"" + path + "\": " + std::strerror(errno);
        return false;
    }
    ::fchmod(fd, 0644);
    bool ok = true;
    for (std::size_t done = 0; ok && done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        ok = n > 0;
        done += ok ? std::size_t(n) : 0;
    }
    ok = ok && ::fsync(fd) == 0;
    const int err = errno;
    ok = ::close(fd) == 0 && ok;
    if (!ok || ::rename(temp.c_str(), path.c_str()) != 0) {
        why = "cannot write \"" + path + "\": " + std::strerror(ok ? errno : err);
        ::unlink(temp.c_str());
        return false;
    }
    return true;
}

namespace {

std::string dirOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? "." : slash == 0 ? "/" : path.substr(0, slash);
}

bool writeAll(int fd, const std::string& data, const std::string& path, std::string& why)
{
    for (std::size_t done = 0; done < data.size();) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            why = "cannot write \"" + path + "\": " + std::strerror(n < 0 ? errno : EIO);
            return false;
        }
        done += std::size_t(n);
    }
    return true;
}

} // namespace

bool resolveOutput(const std::string& path, OutputPath& out, std::string& why)
{
    out = OutputPath{};
    out.path = path;
    if (path.empty()) {
        why = "an empty path";
        return false;
    }
    if (path == "-" || path == "/dev/stdout" || path == "/dev/fd/1" || path == "/proc/self/fd/1") {
        out.kind = OutputPath::Kind::Fd;
        out.fd = STDOUT_FILENO;
        return true;
    }
    if (path == "/dev/stderr" || path == "/dev/fd/2" || path == "/proc/self/fd/2") {
        out.kind = OutputPath::Kind::Fd;
        out.fd = STDERR_FILENO;
        return true;
    }
    // follow links, even to a file that does not exist yet
    std::string at = path;
    for (int hops = 0;; ++hops) {
        struct stat l;
        if (::lstat(at.c_str(), &l) != 0 || !S_ISLNK(l.st_mode))
            break;
        if (hops == 40) {
            why = "\"" + path + "\": too many levels of links";
            return false;
        }
        char target[PATH_MAX];
        const ssize_t n = ::readlink(at.c_str(), target, sizeof target - 1);
        if (n <= 0)
            break;
        const std::string t(target, std::size_t(n));
        at = t[0] == '/' ? t : dirOf(at) + "/" + t;
    }
    struct stat st;
    if (::stat(at.c_str(), &st) == 0) {
        if (S_ISDIR(st.st_mode)) {
            why = "\"" + path + "\" is a folder";
            return false;
        }
        if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode) || at.rfind("/dev/", 0) == 0 || at.rfind("/proc/", 0) == 0) {
            if (::access(at.c_str(), W_OK) != 0) {
                why = "cannot write \"" + path + "\": " + std::strerror(errno);
                return false;
            }
            out.kind = OutputPath::Kind::Stream;
            out.path = at;
            return true;
        }
        if (!S_ISREG(st.st_mode)) {
            why = "\"" + path + "\" is neither a file, a FIFO nor a device";
            return false;
        }
    }
    const std::string dir = dirOf(at);
    struct stat d;
    if (::stat(dir.c_str(), &d) != 0 || !S_ISDIR(d.st_mode)) {
        why = "cannot write \"" + path + "\": the folder \"" + dir + "\" does not exist";
        return false;
    }
    if (::access(dir.c_str(), W_OK) != 0) {
        why = "cannot write \"" + path + "\": the folder \"" + dir + "\" is not writable";
        return false;
    }
    out.kind = OutputPath::Kind::File;
    out.path = at;
    return true;
}

bool writeOutput(const std::string& path, const std::string& data, std::string& why)
{
    OutputPath o;
    if (!resolveOutput(path, o, why))
        return false;
    switch (o.kind) {
    case OutputPath::Kind::Fd:
        std::fflush(nullptr); // after what stdio holds for the same stream
        return writeAll(o.fd, data, path, why);
    case OutputPath::Kind::Stream: {
        const int fd = ::open(o.path.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd < 0) {
            why = "cannot write \"" + path + "\": " + std::strerror(errno);
            return false;
        }
        const bool ok = writeAll(fd, data, path, why);
        return ::close(fd) == 0 && ok;
    }
    case OutputPath::Kind::File:
        break;
    }
    return writeFileAtomically(o.path, data, why);
}

std::string folderOf(const std::string& path)
{
    const std::size_t slash = path.rfind('/');
    return slash == std::string::npos ? std::string(".") : path.substr(0, slash);
}

std::string_view fileBaseName(std::string_view path)
{
    const std::size_t slash = path.find_last_of('/');
    return slash == std::string_view::npos ? path : path.substr(slash + 1);
}

std::string contentTypeOfFilename(std::string_view filename)
{
    // the common types by extension, as Postman's mime lookup names them
    static const std::pair<const char*, const char*> kTypes[] = {
        {"txt", "text/plain"},        {"csv", "text/csv"},
        {"html", "text/html"},        {"htm", "text/html"},
        {"css", "text/css"},          {"xml", "application/xml"},
        {"json", "application/json"}, {"js", "application/javascript"},
        {"pdf", "application/pdf"},   {"zip", "application/zip"},
        {"gz", "application/gzip"},   {"tar", "application/x-tar"},
        {"png", "image/png"},         {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},       {"gif", "image/gif"},
        {"svg", "image/svg+xml"},     {"webp", "image/webp"},
        {"mp4", "video/mp4"},         {"mp3", "audio/mpeg"},
        {"wav", "audio/wav"},         {"yaml", "text/yaml"},
        {"yml", "text/yaml"},         {"md", "text/markdown"}};
    const std::size_t dot = filename.find_last_of('.');
    if (dot != std::string_view::npos)
        for (const auto& [ext, type] : kTypes)
            if (equalsNoCase(filename.substr(dot + 1), ext))
                return type;
    return "application/octet-stream";
}

} // namespace stampede
