//! A Parquet file written with the `parquet` crate's own writer, for tests that need one (the
//! table loaders' checks, the Hub's parquet conversion in the stand-in).

use std::sync::Arc;

/// A column for [`parquet_file`].
pub enum PqCol<'a> {
    Text(&'a str, Vec<Option<&'a str>>),
    Int(&'a str, Vec<Option<i64>>),
    TextList(&'a str, Vec<Vec<&'a str>>),
}

/// A Parquet file written with the `parquet` crate's own writer.
pub fn parquet_file(columns: &[PqCol], compression: parquet::basic::Compression) -> Vec<u8> {
    use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
    use parquet::file::properties::WriterProperties;
    use parquet::file::writer::SerializedFileWriter;

    use parquet::basic::{ConvertedType, Repetition, Type as Physical};
    use parquet::schema::types::Type;
    let text = |name: &str| {
        Arc::new(
            Type::primitive_type_builder(name, Physical::BYTE_ARRAY)
                .with_repetition(Repetition::OPTIONAL)
                .with_converted_type(ConvertedType::UTF8)
                .build()
                .unwrap(),
        )
    };
    let fields = columns
        .iter()
        .map(|c| match c {
            PqCol::Text(n, _) => text(n),
            PqCol::Int(n, _) => Arc::new(
                Type::primitive_type_builder(n, Physical::INT64).with_repetition(Repetition::OPTIONAL).build().unwrap(),
            ),
            PqCol::TextList(n, _) => {
                let list = Type::group_type_builder("list")
                    .with_repetition(Repetition::REPEATED)
                    .with_fields(vec![text("element")])
                    .build()
                    .unwrap();
                Arc::new(
                    Type::group_type_builder(n)
                        .with_repetition(Repetition::OPTIONAL)
                        .with_converted_type(ConvertedType::LIST)
                        .with_fields(vec![Arc::new(list)])
                        .build()
                        .unwrap(),
                )
            }
        })
        .collect();
    let schema = Arc::new(Type::group_type_builder("schema").with_fields(fields).build().unwrap());
    let props = Arc::new(WriterProperties::builder().set_compression(compression).build());
    let mut buf = Vec::new();
    let mut writer = SerializedFileWriter::new(&mut buf, schema, props).unwrap();
    let mut rg = writer.next_row_group().unwrap();
    let mut i = 0;
    while let Some(mut col) = rg.next_column().unwrap() {
        match &columns[i] {
            PqCol::Text(_, vals) => {
                let values: Vec<ByteArray> = vals.iter().flatten().map(|s| ByteArray::from(*s)).collect();
                let defs: Vec<i16> = vals.iter().map(|v| i16::from(v.is_some())).collect();
                col.typed::<ByteArrayType>().write_batch(&values, Some(&defs), None).unwrap();
            }
            PqCol::Int(_, vals) => {
                let values: Vec<i64> = vals.iter().flatten().copied().collect();
                let defs: Vec<i16> = vals.iter().map(|v| i16::from(v.is_some())).collect();
                col.typed::<Int64Type>().write_batch(&values, Some(&defs), None).unwrap();
            }
            PqCol::TextList(_, rows) => {
                let (mut values, mut defs, mut reps) = (Vec::new(), Vec::new(), Vec::new());
                for row in rows {
                    if row.is_empty() {
                        defs.push(1);
                        reps.push(0);
                    }
                    for (k, s) in row.iter().enumerate() {
                        values.push(ByteArray::from(*s));
                        defs.push(3);
                        reps.push(i16::from(k > 0));
                    }
                }
                col.typed::<ByteArrayType>().write_batch(&values, Some(&defs), Some(&reps)).unwrap();
            }
        }
        col.close().unwrap();
        i += 1;
    }
    rg.close().unwrap();
    writer.close().unwrap();
    buf
}
