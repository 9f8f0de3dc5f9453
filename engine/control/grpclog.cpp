#include "grpclog.h"

#include <grpc/support/log.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace stampede {

namespace {
void filtered(gpr_log_func_args* args)
{
    if (args->file && std::strstr(args->file, "tsi/")) // the TLS handshaker: said better by the controller
        return;
    std::fprintf(stderr, "grpc %s:%d: %s\n", args->file ? args->file : "?", args->line,
                 args->message ? args->message : "");
}
} // namespace

void quietGrpcHandshakeLogs()
{
    if (!std::getenv("GRPC_VERBOSITY"))
        gpr_set_log_function(filtered);
}

} // namespace stampede
