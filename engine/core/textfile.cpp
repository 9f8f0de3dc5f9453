#include "textfile.h"

#include <cerrno>
#include <cstring>
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

} // namespace stampede
