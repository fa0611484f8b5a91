// The install manifests (manifests/) against the server they deploy: every webhook entry has
// the settings issue 6 requires and calls a route the router serves; the Deployment probes
// routes that exist; `kubectl kustomize manifests/` renders when kubectl is installed.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "policy/k8s/document.h"
#include "tests/webhook/testing/fake_checker.h"
#include "webhook/server/router.h"

namespace draguard::webhook {
namespace {

namespace fs = std::filesystem;
using ::testing::UnorderedElementsAre;

const fs::path kManifests = fs::path(DRAGUARD_SOURCE_DIR) / "manifests";

std::string Read(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

// The documents of one manifest file; fails the test on a syntax error.
std::vector<k8s::Document> Documents(const fs::path& path) {
  k8s::ParseResult parsed = k8s::ParseDocuments(SourceText(path.string(), Read(path)));
  for (const Diagnostic& d : parsed.diagnostics) ADD_FAILURE() << path << ": " << d.message;
  return std::move(parsed.documents);
}

std::string Text(const k8s::DocNode* node) { return node == nullptr ? "" : node->text; }

const k8s::DocNode* At(const k8s::DocNode& node, std::initializer_list<std::string_view> path) {
  const k8s::DocNode* current = &node;
  for (std::string_view key : path) {
    if (current == nullptr) return nullptr;
    current = current->Find(key);
  }
  return current;
}

// Status the router gives `method path` (no body): 404 means the route does not exist.
int RouteStatus(std::string_view method, std::string_view path) {
  testing::FakeChecker checker;
  HandlerOptions options;
  Metrics metrics;
  ServerHooks hooks;
  RouterState state;
  state.cert_loaded = true;
  Router router(checker, options, metrics, hooks, state);
  return router.Handle({.method = method, .target = path, .content_type = "application/json",
                        .body = testing::MakeReview().dump()})
      .status;
}

TEST(ManifestsTest, KustomizationListsExistingFiles) {
  std::vector<k8s::Document> docs = Documents(kManifests / "kustomization.yaml");
  ASSERT_EQ(docs.size(), 1u);
  const k8s::DocNode* resources = docs[0].root.Find("resources");
  ASSERT_NE(resources, nullptr);
  for (const k8s::DocNode& item : resources->items) {
    EXPECT_TRUE(fs::exists(kManifests / item.text)) << item.text;
  }
}

TEST(ManifestsTest, WebhooksAreConfiguredAsIssue6Requires) {
  std::set<std::string> paths;
  int webhooks = 0;
  for (const char* file : {"validatingwebhookconfiguration.yaml",
                           "mutatingwebhookconfiguration.yaml"}) {
    for (const k8s::Document& doc : Documents(kManifests / file)) {
      const k8s::DocNode* list = doc.root.Find("webhooks");
      ASSERT_NE(list, nullptr) << file;
      const bool mutating = Text(doc.root.Find("kind")) == "MutatingWebhookConfiguration";
      for (const k8s::DocNode& hook : list->items) {
        ++webhooks;
        SCOPED_TRACE(Text(hook.Find("name")));
        EXPECT_EQ(Text(hook.Find("sideEffects")), "None");
        EXPECT_EQ(Text(hook.Find("matchPolicy")), "Equivalent");
        EXPECT_FALSE(Text(hook.Find("failurePolicy")).empty());
        EXPECT_FALSE(Text(hook.Find("timeoutSeconds")).empty());
        const k8s::DocNode* versions = hook.Find("admissionReviewVersions");
        ASSERT_NE(versions, nullptr);
        ASSERT_EQ(versions->items.size(), 1u);
        EXPECT_EQ(versions->items[0].text, "v1");
        if (mutating) {
          EXPECT_FALSE(Text(hook.Find("reinvocationPolicy")).empty());
        }
        const std::string path = Text(At(hook, {"clientConfig", "service", "path"}));
        EXPECT_EQ(path.find('?'), std::string::npos) << "the API server rejects queries";
        EXPECT_EQ(RouteStatus("POST", path), 200) << path;
        paths.insert(path);
        EXPECT_EQ(Text(At(hook, {"clientConfig", "service", "name"})), "draguard");
      }
    }
  }
  EXPECT_GE(webhooks, 4);
  EXPECT_THAT(paths, UnorderedElementsAre("/validate", "/validate/admin-access-allowed",
                                          "/mutate"));
}

TEST(ManifestsTest, DeploymentProbesExistingRoutes) {
  std::vector<k8s::Document> docs = Documents(kManifests / "deployment.yaml");
  ASSERT_EQ(docs.size(), 1u);
  const k8s::DocNode* containers = At(docs[0].root, {"spec", "template", "spec", "containers"});
  ASSERT_NE(containers, nullptr);
  ASSERT_FALSE(containers->items.empty());
  const k8s::DocNode& container = containers->items[0];
  EXPECT_EQ(RouteStatus("GET", Text(At(container, {"readinessProbe", "httpGet", "path"}))), 200);
  EXPECT_EQ(RouteStatus("GET", Text(At(container, {"livenessProbe", "httpGet", "path"}))), 200);
  EXPECT_EQ(Text(At(container, {"securityContext", "readOnlyRootFilesystem"})), "true");
  EXPECT_EQ(Text(At(docs[0].root, {"spec", "replicas"})), "2");
}

// The probes use the plain probe port, which --probe-listen opens; the network policy's
// ports are the container's; the client-auth component mounts what its flag names.
TEST(ManifestsTest, PortsAgreeAcrossTheDeploymentAndTheComponents) {
  std::vector<k8s::Document> docs = Documents(kManifests / "deployment.yaml");
  ASSERT_EQ(docs.size(), 1u);
  const k8s::DocNode& container =
      At(docs[0].root, {"spec", "template", "spec", "containers"})->items[0];
  std::map<std::string, std::string> ports;  // name -> containerPort
  for (const k8s::DocNode& port : container.Find("ports")->items) {
    ports[Text(port.Find("name"))] = Text(port.Find("containerPort"));
  }
  std::set<std::string> args;
  for (const k8s::DocNode& arg : container.Find("args")->items) args.insert(arg.text);
  EXPECT_EQ(args.count("--listen=:" + ports["https"]), 1u);
  EXPECT_EQ(args.count("--probe-listen=:" + ports["probes"]), 1u);
  for (const char* probe : {"readinessProbe", "livenessProbe"}) {
    EXPECT_EQ(Text(At(container, {probe, "httpGet", "port"})), "probes") << probe;
    EXPECT_EQ(Text(At(container, {probe, "httpGet", "scheme"})), "HTTP") << probe;
  }

  std::vector<k8s::Document> policy = Documents(kManifests / "network-policy/networkpolicy.yaml");
  ASSERT_EQ(policy.size(), 1u);
  const k8s::DocNode* ingress = At(policy[0].root, {"spec", "ingress"});
  ASSERT_NE(ingress, nullptr);
  ASSERT_EQ(ingress->items.size(), 2u);
  EXPECT_EQ(Text(ingress->items[0].Find("ports")->items[0].Find("port")), ports["https"]);
  EXPECT_NE(At(ingress->items[0], {"from"}), nullptr) << "the webhook port needs a source";
  EXPECT_EQ(Text(ingress->items[1].Find("ports")->items[0].Find("port")), ports["probes"]);

  const std::string client_auth = Read(kManifests / "client-auth/kustomization.yaml");
  EXPECT_NE(client_auth.find("--client-ca-file=/etc/draguard/client-ca/ca.crt"),
            std::string::npos);
  EXPECT_NE(client_auth.find("mountPath: /etc/draguard/client-ca"), std::string::npos);
}

// The API server's side of client authentication (manifests/client-auth/apiserver): both
// webhook plugins read the kubeconfig shipped next to it (kind WebhookAdmissionConfiguration,
// as k8s.io/apiserver registers it), and that kubeconfig has a client certificate for the
// host the API server calls: "<service>.<namespace>.svc" of manifests/service.yaml.
TEST(ManifestsTest, ApiServerClientAuthExampleNamesTheWebhookService) {
  const fs::path dir = kManifests / "client-auth/apiserver";
  std::vector<k8s::Document> admission = Documents(dir / "admission-configuration.yaml");
  ASSERT_EQ(admission.size(), 1u);
  EXPECT_EQ(Text(admission[0].root.Find("kind")), "AdmissionConfiguration");
  const k8s::DocNode* plugins = admission[0].root.Find("plugins");
  ASSERT_NE(plugins, nullptr);
  std::set<std::string> names, kubeconfigs;
  for (const k8s::DocNode& plugin : plugins->items) {
    names.insert(Text(plugin.Find("name")));
    EXPECT_EQ(Text(At(plugin, {"configuration", "kind"})), "WebhookAdmissionConfiguration");
    EXPECT_EQ(Text(At(plugin, {"configuration", "apiVersion"})), "apiserver.config.k8s.io/v1");
    kubeconfigs.insert(Text(At(plugin, {"configuration", "kubeConfigFile"})));
  }
  EXPECT_EQ(names, (std::set<std::string>{"ValidatingAdmissionWebhook",
                                          "MutatingAdmissionWebhook"}));
  ASSERT_EQ(kubeconfigs.size(), 1u);
  EXPECT_EQ(fs::path(*kubeconfigs.begin()).filename(), "webhook-kubeconfig.yaml");

  std::vector<k8s::Document> service = Documents(kManifests / "service.yaml");
  ASSERT_EQ(service.size(), 1u);
  const std::string host = Text(At(service[0].root, {"metadata", "name"})) + "." +
                           Text(At(service[0].root, {"metadata", "namespace"})) + ".svc";
  std::vector<k8s::Document> kubeconfig = Documents(dir / "webhook-kubeconfig.yaml");
  ASSERT_EQ(kubeconfig.size(), 1u);
  const k8s::DocNode* users = kubeconfig[0].root.Find("users");
  ASSERT_NE(users, nullptr);
  ASSERT_EQ(users->items.size(), 1u);
  EXPECT_EQ(Text(users->items[0].Find("name")), host);
  EXPECT_FALSE(Text(At(users->items[0], {"user", "client-certificate"})).empty());
  EXPECT_FALSE(Text(At(users->items[0], {"user", "client-key"})).empty());
}

TEST(ManifestsTest, KubectlKustomizeRenders) {
  if (std::system("command -v kubectl >/dev/null 2>&1") != 0) {
    GTEST_SKIP() << "kubectl not installed; the structure checks above still ran";
  }
  std::string command = "kubectl kustomize " + kManifests.string() + " 2>&1";
  std::string out;
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  ASSERT_EQ(pclose(pipe), 0) << out;
  k8s::ParseResult rendered = k8s::ParseDocuments(SourceText("rendered", out));
  EXPECT_EQ(rendered.diagnostics.size(), 0u);
  std::multiset<std::string> kinds;
  for (const k8s::Document& doc : rendered.documents) kinds.insert(Text(doc.root.Find("kind")));
  for (const char* kind : {"Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding",
                           "Service", "Deployment", "PodDisruptionBudget",
                           "ValidatingWebhookConfiguration", "MutatingWebhookConfiguration"}) {
    EXPECT_EQ(kinds.count(kind), 1u) << kind;
  }
}

}  // namespace
}  // namespace draguard::webhook
