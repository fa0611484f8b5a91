// `draguard serve` flag handling: every bad value is a usage error (exit 2) with a message
// naming the flag, before anything listens; --help lists the inventory and schema flags.
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "cli/command.h"

namespace draguard::cli {
namespace {

using ::testing::HasSubstr;

struct ServeRun {
  int status;
  std::string out, err;
};

ServeRun Serve(std::vector<std::string> args) {
  std::istringstream in;
  std::ostringstream out, err;
  CommandContext context{.in = in, .out = out, .err = err};
  int status = RunServe(args, context);
  return {status, out.str(), err.str()};
}

TEST(ServeCommandTest, HelpListsTheInventoryAndSchemaFlags) {
  ServeRun r = Serve({"--help"});
  EXPECT_EQ(r.status, kExitOk);
  for (const char* flag : {"--inventory", "--inventory-poll-interval", "--inventory-max-age",
                           "--unsatisfiable", "--satisfiability-budget", "--strict-schema",
                           "--no-builtin-schema"}) {
    EXPECT_THAT(r.out, HasSubstr(flag));
  }
}

struct BadFlag {
  std::string flag;
  std::string message;
};

class ServeBadFlagTest : public ::testing::TestWithParam<BadFlag> {};

TEST_P(ServeBadFlagTest, IsAUsageError) {
  ServeRun r = Serve({"--tls-cert-file=/nonexistent/tls.crt", "--tls-private-key-file=/nonexistent/k",
                 "--listen=127.0.0.1:0", GetParam().flag});
  EXPECT_EQ(r.status, kExitUsage);
  EXPECT_THAT(r.err, HasSubstr(GetParam().message));
}

INSTANTIATE_TEST_SUITE_P(
    Serve, ServeBadFlagTest,
    ::testing::Values(BadFlag{"--unsatisfiable=maybe", "--unsatisfiable"},
                      BadFlag{"--inventory-max-age=5x", "--inventory-max-age"},
                      BadFlag{"--inventory-max-age=0s", "--inventory-max-age"},
                      BadFlag{"--satisfiability-budget=fast", "--satisfiability-budget"},
                      BadFlag{"--inventory-poll-interval=-1s", "--inventory-poll-interval"},
                      BadFlag{"--threads=many", "--threads"},
                      BadFlag{"--max-connections=0", "--max-connections"},
                      BadFlag{"--max-connections=lots", "--max-connections"},
                      BadFlag{"--handshake-timeout=0s", "--handshake-timeout"},
                      BadFlag{"--request-timeout=soon", "--request-timeout"},
                      BadFlag{"--kubernetes-version=1.20", "1.20"}));

TEST(ServeCommandTest, UnreadableCertificateIsAUsageError) {
  ServeRun r = Serve({"--tls-cert-file=/nonexistent/tls.crt", "--tls-private-key-file=/nonexistent/k",
                 "--listen=127.0.0.1:0"});
  EXPECT_EQ(r.status, kExitUsage);
}

}  // namespace
}  // namespace draguard::cli
