package interop;

import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Runs the interop session (tests/interop/session.json) with the official Java
 * MCP SDK's McpSyncClient and prints what it got back as one JSON document.
 *
 * <p>Usage: {@code Client --session FILE (--url URL | -- <server command...>)}
 *
 * <p>Every step goes through the SDK's typed client methods (listTools, callTool,
 * readResource, getPrompt...), so what is exercised is the SDK's parsing of the
 * replayed answers; the results are printed with the SDK's own JSON mapper, so
 * what comes out is the wire form of the SDK's types.
 *
 * <p>Left at the SDK's defaults on purpose: on notifications/tools/list_changed
 * (server-everything sends one during tools/list, and the cassette holds it) the
 * client re-lists tools by itself. The golden cassette has one tools/list, so
 * replay answers that extra request by repeating the recorded answer (without
 * re-sending the list_changed, which would make the client list again).
 */
public final class Client {
  private Client() {}

  public static void main(String[] argv) {
    int code;
    try {
      code = run(argv);
    } catch (Exception error) {
      System.err.println("client: " + McpError.aggregateExceptionMessages(error));
      code = 1;
    }
    // The SDK's HTTP client and reactor threads must not keep the JVM alive.
    System.exit(code);
  }

  private static int run(String[] argv) throws IOException {
    List<String> args = new ArrayList<>(Arrays.asList(argv));
    List<String> command = List.of();
    int dashes = args.indexOf("--");
    if (dashes >= 0) {
      command = new ArrayList<>(args.subList(dashes + 1, args.size()));
      args = new ArrayList<>(args.subList(0, dashes));
    }
    String sessionFile = null;
    String url = null;
    for (int i = 0; i < args.size(); i++) {
      String arg = args.get(i);
      if (arg.equals("--session") && i + 1 < args.size()) sessionFile = args.get(++i);
      else if (arg.equals("--url") && i + 1 < args.size()) url = args.get(++i);
      else return usage("unknown argument " + arg);
    }
    if (sessionFile == null) return usage("--session FILE is required");
    if (url == null && command.isEmpty()) return usage("give --url URL or -- <server command>");

    McpJsonMapper json = McpJsonDefaults.getMapper();
    Map<String, Object> spec =
        json.readValue(Files.readString(Path.of(sessionFile)), new TypeRef<Map<String, Object>>() {});
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> steps = (List<Map<String, Object>>) spec.get("steps");

    McpClientTransport transport;
    String transportName;
    if (url != null) {
      transport = HttpClientStreamableHttpTransport.builder(url).jsonMapper(json).build();
      transportName = "http";
    } else {
      ServerParameters server =
          ServerParameters.builder(command.get(0)).args(command.subList(1, command.size())).build();
      StdioClientTransport stdio = new StdioClientTransport(server, json);
      // The server's stderr, passed through as the other clients do.
      stdio.setStdErrorHandler(line -> System.err.println(line));
      transport = stdio;
      transportName = "stdio";
    }

    McpSyncClient client =
        McpClient.sync(transport)
            .clientInfo(new McpSchema.Implementation("interop-java-client", "1.0.0"))
            .requestTimeout(Duration.ofSeconds(30))
            .initializationTimeout(Duration.ofSeconds(30))
            .build();
    Map<String, Object> out = new LinkedHashMap<>();
    try {
      McpSchema.InitializeResult init = client.initialize();
      out.put("sdk", "java io.modelcontextprotocol.sdk:mcp " + sdkVersion());
      out.put("transport", transportName);
      out.put("era", "legacy");
      Map<String, Object> initialize = new LinkedHashMap<>();
      initialize.put("serverInfo", init.serverInfo());
      initialize.put("protocolVersion", init.protocolVersion());
      out.put("initialize", initialize);
      Map<String, Object> results = new LinkedHashMap<>();
      for (Map<String, Object> step : steps) {
        results.put((String) step.get("name"), runStep(client, step));
      }
      out.put("steps", results);
    } finally {
      client.closeGracefully();
    }
    PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    stdout.println(json.writeValueAsString(out));
    stdout.flush();
    return 0;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> runStep(McpSyncClient client, Map<String, Object> step) {
    String method = (String) step.get("method");
    Map<String, Object> params =
        step.get("params") instanceof Map ? (Map<String, Object>) step.get("params") : Map.of();
    String name = (String) params.get("name");
    Map<String, Object> arguments = (Map<String, Object>) params.get("arguments");
    Object result;
    try {
      switch (method) {
        case "tools/list" -> result = client.listTools();
        case "resources/list" -> result = client.listResources();
        case "prompts/list" -> result = client.listPrompts();
        case "tools/call" ->
            result =
                client.callTool(
                    new McpSchema.CallToolRequest(name, arguments == null ? Map.of() : arguments));
        case "resources/read" ->
            result = client.readResource(new McpSchema.ReadResourceRequest((String) params.get("uri")));
        case "prompts/get" -> result = client.getPrompt(new McpSchema.GetPromptRequest(name, arguments));
        default -> {
          return failure(null, "client does not know " + method);
        }
      }
    } catch (RuntimeException error) {
      McpError wire = findMcpError(error);
      if (wire != null && wire.getJsonRpcError() != null) {
        return failure(wire.getJsonRpcError().code(), wire.getJsonRpcError().message());
      }
      return failure(null, McpError.aggregateExceptionMessages(error));
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("result", result);
    return out;
  }

  /** The JSON-RPC error behind a failed call, however the SDK wrapped it. */
  private static McpError findMcpError(Throwable error) {
    for (Throwable at = error; at != null; at = at.getCause()) {
      if (at instanceof McpError mcp) return mcp;
      if (at.getCause() == at) break;
    }
    return null;
  }

  private static Map<String, Object> failure(Integer code, String message) {
    Map<String, Object> error = new LinkedHashMap<>();
    error.put("code", code);
    error.put("message", message);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("error", error);
    return out;
  }

  /** The SDK version, from the pom.properties Maven put into mcp-core's jar. */
  private static String sdkVersion() {
    String resource = "/META-INF/maven/io.modelcontextprotocol.sdk/mcp-core/pom.properties";
    try (InputStream in = McpSchema.class.getResourceAsStream(resource)) {
      if (in == null) return "unknown";
      Properties properties = new Properties();
      properties.load(in);
      return properties.getProperty("version", "unknown");
    } catch (IOException error) {
      return "unknown";
    }
  }

  private static int usage(String problem) {
    System.err.println("client: " + problem);
    System.err.println("usage: Client --session FILE (--url URL | -- <server command...>)");
    return 2;
  }
}
