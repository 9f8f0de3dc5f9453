#include "textfile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace stampede {

bool readWholeFile(const std::string& path, std::string& out, std::string& why)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        why = std::strerror(errno);
        return false;
    }
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

std::string pathUnder(const std::string& baseDir, const std::string& file)
{
    if (file.empty() || file[0] == '/' || baseDir.empty())
        return file;
    return baseDir + "/" + file;
}

} // namespace stampede
