//! One tool call on wasmi: validate the module's size and imports, make a
//! fresh store with fuel and a memory cap, link exactly the granted host
//! functions, copy the input in, call `run`, and name whatever went wrong.
//!
//! What costs time and holds no per-call state is done once, as wasmtime
//! does: one [`Engine`], each module compiled once ([`ModuleCache`], by
//! digest), one [`Linker`] per grant set. What a call could leave behind — the
//! store, the instance, its memory — is made fresh every call.
//!
//! Limits are host constants ([`LIMITS`]); nothing in a module, descriptor or
//! request can raise them.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};
use voicebox_core::platform::ToolRun;
use voicebox_core::{Refusal, Rule};
use wasmi::TrapCode;
use wasmi::{
    Caller, Config, Engine, Extern, Linker, Module, Store, StoreLimits, StoreLimitsBuilder,
};

/// The host's limits for every tool call.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Instructions a call may run (wasmi fuel): an infinite loop ends here.
    pub fuel: u64,
    /// Linear memory a call may use: a `memory.grow` bomb ends here.
    pub memory_bytes: usize,
    /// The largest module accepted.
    pub module_bytes: usize,
    /// The largest input handed to a tool.
    pub input_bytes: usize,
    /// The most a tool may return, write or note, all told.
    pub output_bytes: usize,
    /// The most host calls (writes, notes, outputs) one run may make.
    pub host_calls: usize,
}

/// The limits in force.
pub const LIMITS: Limits = Limits {
    fuel: 50_000_000,
    memory_bytes: 16 << 20,
    module_bytes: 1 << 20,
    input_bytes: 2 << 20,
    output_bytes: 2 << 20,
    host_calls: 64,
};

/// A host function a tool may be handed, by its import name in module `env`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grant {
    /// `writeFile(path_ptr, path_len, data_ptr, data_len)`: records a write request.
    WriteFile,
    /// `note(ptr, len)`: a note for the person.
    Note,
    /// `output(ptr, len)`: the tool's result.
    Output,
}

impl Grant {
    /// Every grant, in the order of their bits in a grant set.
    const ALL: [Grant; 3] = [Grant::WriteFile, Grant::Note, Grant::Output];

    pub fn import_name(self) -> &'static str {
        match self {
            Grant::WriteFile => "writeFile",
            Grant::Note => "note",
            Grant::Output => "output",
        }
    }

    pub fn from_import_name(name: &str) -> Option<Grant> {
        Grant::ALL.into_iter().find(|g| g.import_name() == name)
    }

    fn bit(self) -> usize {
        1 << (self as usize)
    }
}

/// What the store carries for the host functions.
struct HostState {
    run: ToolRun,
    limits: StoreLimits,
    calls: usize,
    bytes: usize,
    /// Set when a host function stopped the tool for exceeding a budget.
    over_budget: Option<String>,
}

/// The one engine, with fuel metering on. Modules compiled with it can be
/// instantiated in any number of fresh stores.
fn engine() -> &'static Engine {
    static ENGINE: OnceLock<Engine> = OnceLock::new();
    ENGINE.get_or_init(|| {
        let mut config = Config::default();
        config.consume_fuel(true);
        Engine::new(&config)
    })
}

/// A validated, compiled module. Compiling is done once; every call
/// instantiates it in a fresh store, so no state survives between calls.
/// Cloning shares the compiled code, not any instance.
#[derive(Clone)]
pub struct Tool {
    module: Module,
}

/// The most modules a cache keeps: a shelf is a handful, so reaching this
/// means the manifest keeps changing, and the cache starts over.
const CACHED_MODULES: usize = 64;

/// Compiled modules by the sha256 of their bytes. The caller hashes the bytes
/// it read before every call and looks the module up by that digest, so a
/// module whose bytes changed is a different key (or refused before the
/// lookup) and never runs as the module that was admitted.
#[derive(Default)]
pub struct ModuleCache {
    modules: Mutex<HashMap<[u8; 32], Tool>>,
}

impl ModuleCache {
    /// The compiled module of `bytes`, whose sha256 the caller has just
    /// computed as `digest`; compiled the first time that digest is seen.
    pub fn get_or_compile(&self, digest: [u8; 32], bytes: &[u8]) -> Result<Tool, Refusal> {
        let mut modules = self.modules.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(tool) = modules.get(&digest) {
            return Ok(tool.clone());
        }
        let tool = compile(bytes)?;
        if modules.len() >= CACHED_MODULES {
            modules.clear();
        }
        modules.insert(digest, tool.clone());
        Ok(tool)
    }
}

/// Compiles a module (binary or text) within the size cap.
pub fn compile(wasm: &[u8]) -> Result<Tool, Refusal> {
    if wasm.len() > LIMITS.module_bytes {
        return Err(over_budget(format!(
            "the module is {} bytes; modules may be at most {}",
            wasm.len(),
            LIMITS.module_bytes
        )));
    }
    let module = Module::new(engine(), wasm).map_err(|e| {
        Refusal::new(
            Rule::ToolUnavailable,
            format!("the module is not valid WebAssembly: {e}"),
        )
    })?;
    Ok(Tool { module })
}

/// Compiles and runs a module once (see [`Tool::run`]).
pub fn run_module(wasm: &[u8], grants: &[Grant], input: &[u8]) -> Result<ToolRun, Refusal> {
    compile(wasm)?.run(grants, input)
}

impl Tool {
    /// Runs the tool with exactly `grants` on `input`, in a fresh store.
    pub fn run(&self, grants: &[Grant], input: &[u8]) -> Result<ToolRun, Refusal> {
        run_fresh(&self.module, grants, input)
    }

    /// What the module imports, as `(module, name)`, read without instantiating it.
    pub fn imports(&self) -> impl Iterator<Item = (&str, &str)> {
        self.module.imports().map(|i| (i.module(), i.name()))
    }
}

fn run_fresh(module: &Module, grants: &[Grant], input: &[u8]) -> Result<ToolRun, Refusal> {
    if input.len() > LIMITS.input_bytes {
        return Err(over_budget(format!(
            "the input is {} bytes; a tool may be given at most {}",
            input.len(),
            LIMITS.input_bytes
        )));
    }
    let engine = engine();
    let mut store = Store::new(
        engine,
        HostState {
            run: ToolRun::default(),
            limits: StoreLimitsBuilder::new()
                .memory_size(LIMITS.memory_bytes)
                .trap_on_grow_failure(true)
                .build(),
            calls: 0,
            bytes: 0,
            over_budget: None,
        },
    );
    store.limiter(|state| &mut state.limits);
    store.set_fuel(LIMITS.fuel).expect("fuel is enabled");
    let instance = linker_for(grants)
        .instantiate_and_start(&mut store, module)
        .map_err(|e| instantiate_error(&e))?;
    let alloc = instance
        .get_typed_func::<i32, i32>(&store, "alloc")
        .map_err(|_| protocol("export `alloc(len) -> ptr`"))?;
    let run = instance
        .get_typed_func::<(i32, i32), ()>(&store, "run")
        .map_err(|_| protocol("export `run(ptr, len)`"))?;
    let memory = instance
        .get_memory(&store, "memory")
        .ok_or_else(|| protocol("export `memory`"))?;
    let len = i32::try_from(input.len()).expect("input is capped");
    let ptr = alloc
        .call(&mut store, len)
        .map_err(|e| call_error(&e, &store))?;
    memory
        .write(&mut store, ptr as u32 as usize, input)
        .map_err(|_| protocol("return a pointer from `alloc` with room for the input"))?;
    run.call(&mut store, (ptr, len))
        .map_err(|e| call_error(&e, &store))?;
    Ok(store.into_data().run)
}

/// The linker for exactly `grants`, built the first time that set is asked
/// for and shared by every later call with it: a linker holds host functions
/// only, and each call's state lives in its own fresh store.
fn linker_for(grants: &[Grant]) -> &'static Linker<HostState> {
    static LINKERS: [OnceLock<Linker<HostState>>; 1 << Grant::ALL.len()] =
        [const { OnceLock::new() }; 1 << Grant::ALL.len()];
    let set = grants.iter().fold(0, |set, g| set | g.bit());
    LINKERS[set].get_or_init(|| linker(engine(), set))
}

/// A linker with exactly the host functions in grant set `set`, and nothing
/// else: a module importing anything more fails to instantiate.
fn linker(engine: &Engine, set: usize) -> Linker<HostState> {
    let mut linker = Linker::new(engine);
    for grant in Grant::ALL.into_iter().filter(|g| set & g.bit() != 0) {
        let defined = match grant {
            Grant::WriteFile => linker.func_wrap(
                "env",
                "writeFile",
                |mut caller: Caller<'_, HostState>,
                 path_ptr: i32,
                 path_len: i32,
                 data_ptr: i32,
                 data_len: i32| {
                    let path = read_memory(&caller, path_ptr, path_len)?;
                    let data = read_memory(&caller, data_ptr, data_len)?;
                    charge(&mut caller, path.len() + data.len())?;
                    let path = String::from_utf8_lossy(&path).into_owned();
                    caller.data_mut().run.writes.push((path, data));
                    Ok(())
                },
            ),
            Grant::Note => taking_bytes(&mut linker, "note", |run, note| {
                run.notes.push(String::from_utf8_lossy(&note).into_owned());
            }),
            Grant::Output => taking_bytes(&mut linker, "output", |run, output| {
                run.output.extend_from_slice(&output);
            }),
        };
        defined.expect("each grant is defined once");
    }
    linker
}

/// Defines `env.name(ptr, len)`: the bytes the module hands over are read,
/// charged, and given to `keep` with the run.
fn taking_bytes<'a>(
    linker: &'a mut Linker<HostState>,
    name: &str,
    keep: fn(&mut ToolRun, Vec<u8>),
) -> Result<&'a mut Linker<HostState>, wasmi::errors::LinkerError> {
    linker.func_wrap(
        "env",
        name,
        move |mut caller: Caller<'_, HostState>, ptr: i32, len: i32| {
            let bytes = read_memory(&caller, ptr, len)?;
            charge(&mut caller, bytes.len())?;
            keep(&mut caller.data_mut().run, bytes);
            Ok(())
        },
    )
}

/// Copies `[ptr, ptr+len)` out of the caller's memory.
fn read_memory(
    caller: &Caller<'_, HostState>,
    ptr: i32,
    len: i32,
) -> Result<Vec<u8>, wasmi::Error> {
    let memory = caller
        .get_export("memory")
        .and_then(Extern::into_memory)
        .ok_or_else(|| wasmi::Error::new("the tool exports no memory"))?;
    let (start, len) = (ptr as u32 as usize, len as u32 as usize);
    memory
        .data(caller)
        .get(start..start.saturating_add(len))
        .map(<[u8]>::to_vec)
        .ok_or_else(|| wasmi::Error::new("the tool passed a range outside its memory"))
}

/// Counts one host call of `bytes` against the run's budget.
fn charge(caller: &mut Caller<'_, HostState>, bytes: usize) -> Result<(), wasmi::Error> {
    let state = caller.data_mut();
    state.calls += 1;
    state.bytes += bytes;
    if state.calls > LIMITS.host_calls || state.bytes > LIMITS.output_bytes {
        let why = format!(
            "the tool made more than {} host calls or passed more than {} bytes",
            LIMITS.host_calls, LIMITS.output_bytes
        );
        state.over_budget = Some(why.clone());
        return Err(wasmi::Error::new(why));
    }
    Ok(())
}

fn over_budget(why: String) -> Refusal {
    Refusal::new(
        Rule::OverBudget,
        format!("{why}; the limit is the host's and cannot be raised"),
    )
}

fn protocol(what: &str) -> Refusal {
    Refusal::new(
        Rule::ToolProtocol,
        format!("the tool does not {what}; it cannot be run"),
    )
}

/// Instantiation failures: a missing import is the boundary working.
fn instantiate_error(error: &wasmi::Error) -> Refusal {
    let words = error.to_string();
    if let Some(TrapCode::GrowthOperationLimited) = error.as_trap_code() {
        return Refusal::new(
            Rule::ResourceExceeded,
            format!("the tool asked for more memory than the host allows: {words}"),
        );
    }
    if words.contains("import")
        || words.contains("cannot find definition")
        || words.contains("missing")
    {
        return Refusal::new(
            Rule::ImportUndeclared,
            format!(
                "the tool imports something the host does not hand it ({words}); a tool gets only the host functions it was granted"
            ),
        );
    }
    if words.contains("memory") || words.contains("limit") {
        return Refusal::new(
            Rule::ResourceExceeded,
            format!("the tool asked for more memory than the host allows: {words}"),
        );
    }
    Refusal::new(
        Rule::WasmTrapped,
        format!("the tool failed to start: {words}"),
    )
}

/// Call failures: fuel, memory, budgets, traps — each by its own name.
fn call_error(error: &wasmi::Error, store: &Store<HostState>) -> Refusal {
    if let Some(why) = &store.data().over_budget {
        return over_budget(why.clone());
    }
    match error.as_trap_code() {
        Some(TrapCode::OutOfFuel) => Refusal::new(
            Rule::OutOfFuel,
            format!(
                "the tool used its whole instruction budget ({} units of fuel) and was stopped; it may loop forever — fix the tool",
                LIMITS.fuel
            ),
        ),
        Some(TrapCode::GrowthOperationLimited) => Refusal::new(
            Rule::ResourceExceeded,
            format!(
                "the tool tried to grow its memory past the host's cap of {} MiB and was stopped",
                LIMITS.memory_bytes >> 20
            ),
        ),
        _ => Refusal::new(
            Rule::WasmTrapped,
            format!("the tool trapped: {error}; nothing was written"),
        ),
    }
}
